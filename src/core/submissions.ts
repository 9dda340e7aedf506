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
import type { ExecutionResult, InputRow, RunRowsAcceptance } from '../shared/contract'
import { ApiError } from './api'
import type { Connection } from './engine'
import { EngineError } from './errors'
import { transaction, type Db } from './history/db'

export type SubmissionTarget =
  | { kind: 'template'; templateId: string; callbackUrl?: string | undefined }
  | { kind: 'listing'; listingId: string; listingVersionId: string; taskFeeT: number }

export type SubmissionState = 'pending' | 'sent' | 'accepted' | 'refused'

export interface SubmissionInput {
  target: SubmissionTarget
  rows: InputRow[]
  /** The spreadsheet row of each row, for messages and the results workbook. */
  rowNumbers?: number[]
  /** The workbook the rows came from; a copy is kept with the history entry. */
  inputPath?: string | undefined
  /** The run whose failed rows this submission retries. */
  retryOfRunId?: string | undefined
}

export interface Submission {
  id: number
  clientRequestId: string
  environment: string
  origin: string
  targetKind: 'template' | 'listing'
  targetId: string
  listingVersionId: string
  callbackUrl: string
  inputFilename: string
  inputCopyPath: string
  rowCount: number
  rows: InputRow[]
  rowNumbers: number[]
  taskFeeT: number
  estimatedCostT: number
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
    origin: r.origin,
    targetKind: r.target_kind === 'listing' ? 'listing' : 'template',
    targetId: r.target_id,
    listingVersionId: r.listing_version_id,
    callbackUrl: r.callback_url,
    inputFilename: r.input_filename,
    inputCopyPath: r.input_copy_path,
    rowCount: r.row_count,
    rows: JSON.parse(r.rows_json) as InputRow[],
    rowNumbers: JSON.parse(r.row_numbers_json) as number[],
    taskFeeT: r.task_fee_t,
    estimatedCostT: r.estimated_cost_t,
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

/** Identifies "the same submission": environment, target and input content. */
export function fingerprintOf(origin: string, target: SubmissionTarget, rows: InputRow[]): string {
  const hash = createHash('sha256')
  hash.update(JSON.stringify([origin, target, rows]))
  return hash.digest('hex')
}

export class Submissions {
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
    const fingerprint = fingerprintOf(connection.key, target, input.rows)
    const targetId = target.kind === 'template' ? target.templateId : target.listingId
    const taskFeeT = target.kind === 'listing' ? target.taskFeeT : 0
    const now = Date.now()
    const clientRequestId = randomUUID()
    const id = transaction(this.db, () => {
      const open = this.db
        .prepare(
          `SELECT id FROM submissions WHERE origin = ? AND fingerprint = ? AND state IN ('pending', 'sent')
           ORDER BY id LIMIT 1`,
        )
        .get(connection.key, fingerprint) as { id: number } | undefined
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
          connection.key,
          target.kind,
          targetId,
          target.kind === 'listing' ? target.listingVersionId : '',
          fingerprint,
          input.inputPath ? basename(input.inputPath) : '',
          input.rows.length,
          JSON.stringify(input.rows),
          JSON.stringify(input.rowNumbers ?? input.rows.map((_, i) => i + 2)),
          target.kind === 'template' ? (target.callbackUrl ?? '') : '',
          taskFeeT,
          taskFeeT * input.rows.length,
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
    if (entry.origin !== connection.key) {
      throw new EngineError(
        'internal',
        'This submission belongs to another environment.',
        `Send it from “${entry.environment}”.`,
      )
    }
    this.db
      .prepare(
        `UPDATE submissions SET state = 'sent', attempts = attempts + 1, updated_at_ms = ? WHERE id = ?`,
      )
      .run(Date.now(), entry.id)
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
      return this.get(entry.id)
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
      throw error
    }
  }

  /** Every submission of this environment still waiting for an answer, oldest first. */
  unanswered(origin: string): Submission[] {
    return (
      this.db
        .prepare(
          `SELECT * FROM submissions WHERE origin = ? AND state IN ('pending', 'sent') ORDER BY id`,
        )
        .all(origin) as SubmissionRow[]
    ).map(fromRow)
  }

  /** Resends every unanswered submission of the environment (after a crash or a lost answer). */
  async resendUnanswered(connection: Connection): Promise<Submission[]> {
    const done: Submission[] = []
    for (const entry of this.unanswered(connection.key)) {
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

  byRun(origin: string, runId: string): Submission | null {
    const row = this.db
      .prepare('SELECT * FROM submissions WHERE origin = ? AND run_id = ? ORDER BY id DESC LIMIT 1')
      .get(origin, runId) as SubmissionRow | undefined
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
    const target = join(this.inputsDir, `${entry.id}-${basename(inputPath)}`)
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

/** The service answered and said no: resending the same request cannot succeed. */
function isDefinitiveRefusal(error: ApiError): boolean {
  return (
    error.kind === 'http' &&
    error.status >= 400 &&
    error.status < 500 &&
    ![408, 425, 429].includes(error.status)
  )
}
