/**
 * The submission journal: the one place that spends money. Every submission (runRows for an
 * official template, execute for a marketplace listing) is written to the history database with
 * a fresh clientRequestId BEFORE it is sent. A lost answer, a timeout, a crash or a rerun of the
 * same command resends it with the SAME id, so the service makes one run and charges once.
 *
 * States: `pending` (journaled, not yet sent), `sent` (sent, no answer yet), `accepted` (the
 * service answered with a run), `refused` (the service said no; a later identical submission
 * gets a new id).
 */
import { createHash, randomUUID } from 'node:crypto'
import { copyFile, mkdir, rename } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { ExecutionResult, InputRow, RunRowsAcceptance } from '../../../shared/contract'
import { SUBMITTED_ROWS, spreadsheetRows, type RowNumbering } from '../../../shared/format'
import { ApiError } from '../../service'
import type { Connection } from '../../environments/connection'
import { EngineError } from '../../errors'
import { transaction, type Db } from '../../storage/db'

export type SubmissionTarget =
  | { kind: 'template'; templateId: string; callbackUrl?: string | undefined }
  | {
      kind: 'listing'
      listingId: string
      listingVersionId: string
      /** Fee per task when known (null: the service does not show it to this buyer). */
      taskFixedFeeT: number | null
    }

export type SubmissionState = 'pending' | 'sent' | 'accepted' | 'refused'

export interface SubmissionInput {
  target: SubmissionTarget
  rows: InputRow[]
  /**
   * The spreadsheet row of each row, when they came from a workbook; without it the rows are
   * named by their position in the submission ("submitted row 5").
   */
  rowNumbers?: number[] | undefined
  /** The workbook the rows came from; a copy is kept with the history entry. */
  inputPath?: string | undefined
  /** The name to show for it (by default the file name of inputPath). */
  inputFilename?: string | undefined
  /** The run whose failed rows this submission retries. */
  retryOfRunId?: string | undefined
  /** The estimate shown to the user (null: not known); by default rows x the target's fee. */
  estimatedCostT?: number | null | undefined
  /**
   * What makes it "the same submission" (see fingerprintOf); by default worked out from the
   * rows as sent. A plan passes the one it computed from file contents before any upload.
   */
  fingerprint?: string | undefined
}

/** What listeners of Submissions.onChange hear when a journaled submission changes state. */
export interface SubmissionChange {
  environment: string
  historyKey: string
  clientRequestId: string
  state: SubmissionState
  runId: string
  error: string
}

export interface Submission {
  id: number
  clientRequestId: string
  environment: string
  /** Where the submission is filed (Connection.historyKey; the column is called origin). */
  historyKey: string
  targetKind: 'template' | 'listing'
  targetId: string
  listingVersionId: string
  callbackUrl: string
  inputFilename: string
  inputCopyPath: string
  rowCount: number
  rows: InputRow[]
  rowNumbers: number[]
  /** Fee per task when it was known at sending; null when not (or for templates). */
  taskFixedFeeT: number | null
  /** The estimate shown before sending; null when the cost was not known. */
  estimatedCostT: number | null
  retryOfRunId: string
  state: SubmissionState
  runId: string
  /** The service's answer (runRows acceptance or execution result) once accepted. */
  answer: RunRowsAcceptance | ExecutionResult | null
  error: string
  attempts: number
  createdAtMs: number
  updatedAtMs: number
}

interface SubmissionRow {
  id: number
  client_request_id: string
  environment: string
  origin: string
  target_kind: string
  target_id: string
  listing_version_id: string
  callback_url: string
  input_filename: string
  input_copy_path: string
  row_count: number
  rows_json: string
  row_numbers_json: string
  task_fee_t: number
  estimated_cost_t: number
  retry_of_run_id: string
  state: string
  run_id: string
  answer_json: string
  error: string
  attempts: number
  created_at_ms: number
  updated_at_ms: number
}

function fromRow(r: SubmissionRow): Submission {
  return {
    id: r.id,
    clientRequestId: r.client_request_id,
    environment: r.environment,
    historyKey: r.origin,
    targetKind: r.target_kind === 'listing' ? 'listing' : 'template',
    targetId: r.target_id,
    listingVersionId: r.listing_version_id,
    callbackUrl: r.callback_url,
    inputFilename: r.input_filename,
    inputCopyPath: r.input_copy_path,
    rowCount: r.row_count,
    rows: JSON.parse(r.rows_json) as InputRow[],
    rowNumbers: JSON.parse(r.row_numbers_json) as number[],
    taskFixedFeeT: r.task_fee_t < 0 ? null : r.task_fee_t,
    estimatedCostT: r.estimated_cost_t < 0 ? null : r.estimated_cost_t,
    retryOfRunId: r.retry_of_run_id,
    state: r.state as SubmissionState,
    runId: r.run_id,
    answer: r.answer_json
      ? (JSON.parse(r.answer_json) as RunRowsAcceptance | ExecutionResult)
      : null,
    error: r.error,
    attempts: r.attempts,
    createdAtMs: r.created_at_ms,
    updatedAtMs: r.updated_at_ms,
  }
}

/**
 * Identifies "the same submission": environment, target (what it runs, not what it was thought
 * to cost) and input content.
 */
export function fingerprintOf(historyKey: string, target: SubmissionTarget, rows: InputRow[]): string {
  const identity =
    target.kind === 'template'
      ? ['template', target.templateId, target.callbackUrl ?? '']
      : ['listing', target.listingId, target.listingVersionId]
  const hash = createHash('sha256')
  hash.update(JSON.stringify([historyKey, identity, rows]))
  return hash.digest('hex')
}

export class Submissions {
  private readonly listeners = new Set<(change: SubmissionChange) => void>()

  constructor(
    private readonly db: Db,
    /** Where copies of input workbooks are kept (<home>/inputs). */
    private readonly inputsDir: string,
  ) {}

  /**
   * Journals a submission, or finds the identical one still unanswered and returns it (same
   * clientRequestId). Nothing is sent here.
   */
  async journal(connection: Connection, input: SubmissionInput): Promise<Submission> {
    const target = input.target
    const fingerprint =
      input.fingerprint ?? fingerprintOf(connection.historyKey, target, input.rows)
    const targetId = target.kind === 'template' ? target.templateId : target.listingId
    const fee = target.kind === 'listing' ? target.taskFixedFeeT : null
    // Unknown amounts are kept as -1 (the columns predate "unknown").
    const estimate =
      input.estimatedCostT !== undefined
        ? input.estimatedCostT
        : fee === null
          ? null
          : fee * input.rows.length
    const now = Date.now()
    const clientRequestId = randomUUID()
    const id = transaction(this.db, () => {
      const open = this.db
        .prepare(
          `SELECT id FROM submissions WHERE origin = ? AND fingerprint = ? AND state IN ('pending', 'sent')
           ORDER BY id LIMIT 1`,
        )
        .get(connection.historyKey, fingerprint) as { id: number } | undefined
      if (open) return open.id
      const result = this.db
        .prepare(
          `INSERT INTO submissions (client_request_id, environment, origin, target_kind, target_id,
             listing_version_id, fingerprint, input_filename, row_count, rows_json, row_numbers_json,
             callback_url, task_fee_t, estimated_cost_t, retry_of_run_id, state, created_at_ms, updated_at_ms)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
        )
        .run(
          clientRequestId,
          connection.name,
          connection.historyKey,
          target.kind,
          targetId,
          target.kind === 'listing' ? target.listingVersionId : '',
          fingerprint,
          input.inputFilename || (input.inputPath ? basename(input.inputPath) : ''),
          input.rows.length,
          JSON.stringify(input.rows),
          // No numbers: the rows did not come from a workbook (named "submitted row N").
          JSON.stringify(input.rowNumbers ?? []),
          target.kind === 'template' ? (target.callbackUrl ?? '') : '',
          fee ?? -1,
          estimate ?? -1,
          input.retryOfRunId ?? '',
          now,
          now,
        )
      return Number(result.lastInsertRowid)
    })
    const entry = this.get(id)
    if (input.inputPath && !entry.inputCopyPath) {
      const copy = await this.keepCopy(entry, input.inputPath)
      this.db.prepare('UPDATE submissions SET input_copy_path = ? WHERE id = ?').run(copy, id)
      return this.get(id)
    }
    return entry
  }

  /**
   * Sends a journaled submission with its clientRequestId and records the answer. An answer
   * that never came (network, timeout, 5xx) leaves it `sent`: sending it again is safe.
   */
  async send(
    connection: Connection,
    entry: Submission,
    options: { signal?: AbortSignal } = {},
  ): Promise<Submission> {
    if (entry.state === 'accepted' || entry.state === 'refused') return entry
    if (entry.historyKey !== connection.historyKey) {
      throw new EngineError(
        'conflict',
        'This submission belongs to another environment.',
        `Send it from “${entry.environment}”.`,
      )
    }
    this.db
      .prepare(
        `UPDATE submissions SET state = 'sent', attempts = attempts + 1, updated_at_ms = ? WHERE id = ?`,
      )
      .run(Date.now(), entry.id)
    this.notify(this.get(entry.id))
    try {
      let answer: RunRowsAcceptance | ExecutionResult
      if (entry.targetKind === 'template') {
        answer = await connection.client.runRows(
          entry.targetId,
          {
            clientRequestId: entry.clientRequestId,
            rows: entry.rows,
            ...(entry.callbackUrl ? { callbackUrl: entry.callbackUrl } : {}),
          },
          { signal: options.signal },
        )
      } else {
        answer = await connection.client.execute(
          entry.targetId,
          {
            clientRequestId: entry.clientRequestId,
            confirm: true,
            inputRows: entry.rows,
            listingVersionId: entry.listingVersionId,
          },
          { signal: options.signal, timeoutMs: 120_000 },
        )
      }
      this.db
        .prepare(
          `UPDATE submissions SET state = 'accepted', run_id = ?, answer_json = ?, error = '', updated_at_ms = ? WHERE id = ?`,
        )
        .run(answer.runId, JSON.stringify(answer), Date.now(), entry.id)
      const accepted = this.get(entry.id)
      this.notify(accepted)
      return accepted
    } catch (error) {
      if (error instanceof ApiError && isDefinitiveRefusal(error)) {
        this.db
          .prepare(
            `UPDATE submissions SET state = 'refused', error = ?, updated_at_ms = ? WHERE id = ?`,
          )
          .run(error.message, Date.now(), entry.id)
      } else {
        this.db
          .prepare(`UPDATE submissions SET error = ?, updated_at_ms = ? WHERE id = ?`)
          .run(error instanceof Error ? error.message : String(error), Date.now(), entry.id)
      }
      this.notify(this.get(entry.id))
      throw error
    }
  }

  /** Listens to state changes of journaled submissions; returns a function that stops it. */
  onChange(listener: (change: SubmissionChange) => void): () => void {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  private notify(entry: Submission) {
    const change: SubmissionChange = {
      environment: entry.environment,
      historyKey: entry.historyKey,
      clientRequestId: entry.clientRequestId,
      state: entry.state,
      runId: entry.runId,
      error: entry.error,
    }
    for (const listener of [...this.listeners]) {
      try {
        listener(change)
      } catch {
        // A listener's failure is its own.
      }
    }
  }

  /** The input file names of runs sent from here: run id -> file name (runs without one left out). */
  inputFilenames(historyKey: string, runIds: readonly string[]): Map<string, string> {
    if (runIds.length === 0) return new Map()
    const rows = this.db
      .prepare(
        `SELECT run_id, input_filename FROM submissions WHERE origin = ? AND input_filename <> ''
         AND run_id IN (${runIds.map(() => '?').join(', ')})`,
      )
      .all(historyKey, ...runIds) as { run_id: string; input_filename: string }[]
    return new Map(rows.map((r) => [r.run_id, r.input_filename]))
  }

  /** The latest accepted submission with this fingerprint (an identical one already sent). */
  acceptedLike(historyKey: string, fingerprint: string): Submission | null {
    const row = this.db
      .prepare(
        `SELECT * FROM submissions WHERE origin = ? AND fingerprint = ? AND state = 'accepted'
         ORDER BY id DESC LIMIT 1`,
      )
      .get(historyKey, fingerprint) as SubmissionRow | undefined
    return row ? fromRow(row) : null
  }

  /** The identical submission still waiting for an answer, if any. */
  unansweredLike(historyKey: string, fingerprint: string): Submission | null {
    const row = this.db
      .prepare(
        `SELECT * FROM submissions WHERE origin = ? AND fingerprint = ? AND state IN ('pending', 'sent')
         ORDER BY id LIMIT 1`,
      )
      .get(historyKey, fingerprint) as SubmissionRow | undefined
    return row ? fromRow(row) : null
  }

  /** Accepted submissions of one template or listing, newest first. */
  acceptedOfTarget(
    historyKey: string,
    kind: 'template' | 'listing',
    targetId: string,
    limit = 5,
  ): Submission[] {
    return (
      this.db
        .prepare(
          `SELECT * FROM submissions WHERE origin = ? AND target_kind = ? AND target_id = ? AND state = 'accepted'
           ORDER BY id DESC LIMIT ?`,
        )
        .all(historyKey, kind, targetId, limit) as SubmissionRow[]
    ).map(fromRow)
  }

  /** Every submission of this environment still waiting for an answer, oldest first. */
  unanswered(historyKey: string): Submission[] {
    return (
      this.db
        .prepare(
          `SELECT * FROM submissions WHERE origin = ? AND state IN ('pending', 'sent') ORDER BY id`,
        )
        .all(historyKey) as SubmissionRow[]
    ).map(fromRow)
  }

  /** Resends every unanswered submission of the environment (after a crash or a lost answer). */
  async resendUnanswered(connection: Connection): Promise<Submission[]> {
    const done: Submission[] = []
    for (const entry of this.unanswered(connection.historyKey)) {
      try {
        done.push(await this.send(connection, entry))
      } catch {
        // Stays unanswered; the next resend tries again.
      }
    }
    return done
  }

  get(id: number): Submission {
    const row = this.db.prepare('SELECT * FROM submissions WHERE id = ?').get(id) as
      SubmissionRow | undefined
    if (!row)
      throw new EngineError(
        'not-found',
        `There is no submission ${id} in the history.`,
        'See `skill-runner history`.',
      )
    return fromRow(row)
  }

  /** The accepted submission that created a run, when it was made on this device. */
  /**
   * Changes whenever a submission is accepted, by this process or another one sharing the
   * history (the command line next to the app). A local read: no request to any service.
   */
  acceptedMark(): string {
    const row = this.db
      .prepare(
        "SELECT COUNT(*) AS n, COALESCE(MAX(updated_at_ms), 0) AS at FROM submissions WHERE state = 'accepted'",
      )
      .get() as { n: number; at: number }
    return `${row.n}:${row.at}`
  }

  byRun(historyKey: string, runId: string): Submission | null {
    const row = this.db
      .prepare('SELECT * FROM submissions WHERE origin = ? AND run_id = ? ORDER BY id DESC LIMIT 1')
      .get(historyKey, runId) as SubmissionRow | undefined
    return row ? fromRow(row) : null
  }

  /**
   * The history, newest first. `search` matches file name, template or listing, run id, status
   * and date (YYYY-MM-DD) alike.
   */
  search(
    query: { search?: string | undefined; environment?: string | undefined; limit?: number } = {},
  ): Submission[] {
    const where: string[] = []
    const params: (string | number)[] = []
    if (query.environment) {
      where.push('environment = ?')
      params.push(query.environment)
    }
    if (query.search?.trim()) {
      const like = `%${query.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
      where.push(
        `(input_filename LIKE ? ESCAPE '\\' OR target_id LIKE ? ESCAPE '\\' OR run_id LIKE ? ESCAPE '\\'
          OR state LIKE ? ESCAPE '\\' OR client_request_id LIKE ? ESCAPE '\\'
          OR date(created_at_ms / 1000, 'unixepoch') LIKE ? ESCAPE '\\'
          OR EXISTS (SELECT 1 FROM runs_seen r WHERE r.origin = submissions.origin AND r.run_id = submissions.run_id AND r.status LIKE ? ESCAPE '\\'))`,
      )
      params.push(like, like, like, like, like, like, like)
    }
    const sql = `SELECT * FROM submissions ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`
    params.push(query.limit ?? 200)
    return (this.db.prepare(sql).all(...params) as SubmissionRow[]).map(fromRow)
  }

  private async keepCopy(entry: Submission, inputPath: string): Promise<string> {
    await mkdir(this.inputsDir, { recursive: true })
    const target = join(this.inputsDir, `${entry.id}-${basename(entry.inputFilename || inputPath)}`)
    const temp = `${target}.partial`
    try {
      await copyFile(inputPath, temp)
      await rename(temp, target)
      return target
    } catch {
      return ''
    }
  }
}

/**
 * How the rows of a run sent from here are named: by spreadsheet row when they came from a
 * workbook, else by position ("submitted row 5"); null for a run this device did not send.
 */
export function rowNumberingOf(submission: Submission | null): RowNumbering | null {
  if (!submission) return null
  return submission.rowNumbers.length > 0 ? spreadsheetRows(submission.rowNumbers) : SUBMITTED_ROWS
}

/** The service answered and said no: resending the same request cannot succeed. */
function isDefinitiveRefusal(error: ApiError): boolean {
  return (
    error.kind === 'http' &&
    error.status >= 400 &&
    error.status < 500 &&
    ![408, 425, 429].includes(error.status)
  )
}
