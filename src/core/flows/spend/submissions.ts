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
import { mkdir } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { RunSummary } from '../../../shared/contract'
import { ApiError } from '../../service'
import type { Connection } from '../../environments/connection'
import { EngineError } from '../../errors'
import { copyFileAtomically } from '../../files/atomic-write'
import { transaction, type Db } from '../../storage/db'
import {
  SubmissionsTable,
  type Submission,
  type SubmissionHead,
  type SubmissionSheet,
  type SubmissionState,
} from '../../storage/tables/submissions'
import { findLostAnswers } from './found-runs'
import { sendToService } from './send-to-service'
import { hashFile } from './uploads'

import { newSubmission, type StreamedInput, type SubmissionInput } from './journal-entry'
import {
  journaledTexts,
  RowsNotResendableError,
  rowSourceOf,
  stageRows,
  type RowSource,
} from './journal-rows'
import type { InputRow } from '../../../shared/contract'
import type { JsonTexts } from '../../service/bodies'

export type { Submission, SubmissionHead, SubmissionSheet, SubmissionState }
export type { StreamedInput, SubmissionInput } from './journal-entry'
export { rowNumberingOf, submittedTarget } from './journal-entry'

/** What listeners of Submissions.onChange hear when a journaled submission changes state. */
export interface SubmissionChange {
  environment: string
  historyKey: string
  clientRequestId: string
  state: SubmissionState
  runId: string
  error: string
}

export class Submissions {
  private readonly listeners = new Set<(change: SubmissionChange) => void>()
  private readonly table: SubmissionsTable
  /** The sends this process has under way, by entry id: an entry is never sent twice at once. */
  private readonly sending = new Map<number, Promise<SubmissionHead>>()

  constructor(
    private readonly db: Db,
    /** Where copies of input workbooks are kept (<home>/inputs). */
    private readonly inputsDir: string,
  ) {
    this.table = new SubmissionsTable(db)
  }

  /** Journals a submission, or gives back the identical one still unanswered; sends nothing. */
  async journal(connection: Connection, input: SubmissionInput): Promise<Submission> {
    const { id, inserted } = await this.record(connection, input, rowSourceOf(input.rows))
    // Rows just written are not read back: the caller's are the same.
    if (!inserted) return this.get(id)
    return { ...this.head(id), rows: input.rows, rowNumbers: input.rowNumbers ?? [] }
  }

  /**
   * journal() for rows that come a run at a time (a part of a plan): written as they are read,
   * never all in memory; answers the entry without its rows.
   */
  async journalRows(connection: Connection, input: StreamedInput): Promise<SubmissionHead> {
    return this.head((await this.record(connection, input, input.rows)).id)
  }

  private async record(
    connection: Connection,
    input: SubmissionInput | StreamedInput,
    rows: RowSource,
  ): Promise<{ id: number; inserted: boolean }> {
    // The workbook's content as sent, so the rest of a pilot is read from the same one.
    const sha256 = input.inputOf
      ? input.inputOf.inputSha256
      : input.inputPath
        ? await hashFile(input.inputPath).catch(() => '')
        : ''
    const entry = newSubmission(connection, input, sha256)
    const { historyKey } = connection
    let id = this.table.firstUnansweredId(historyKey, entry.fingerprint)
    let inserted = false
    if (id === null) {
      // Staged first, then written with the entry in one transaction: two processes
      // journaling the same submission at once end with one entry.
      const stage = entry.clientRequestId
      try {
        const rowsSha256 = await stageRows(this.table.rows, stage, rows)
        id = transaction(this.db, () => {
          const earlier = this.table.firstUnansweredId(historyKey, entry.fingerprint)
          if (earlier !== null) return earlier
          inserted = true
          return this.table.insertPending({ ...entry, rowsSha256 }, stage)
        })
      } finally {
        this.table.rows.dropStage(stage)
      }
    }
    const journaled = this.head(id)
    if (input.inputPath && !journaled.inputCopyPath) {
      const copy = input.inputOf?.inputCopyPath || (await this.keepCopy(journaled, input.inputPath))
      this.table.setInputCopyPath(id, copy)
    }
    return { id, inserted }
  }

  /**
   * Sends a journaled submission with its clientRequestId and records the answer. An answer
   * that never came (network, timeout, 5xx) leaves it `sent`: sending it again is safe.
   */
  send(
    connection: Connection,
    entry: SubmissionHead,
    options: { signal?: AbortSignal } = {},
  ): Promise<SubmissionHead> {
    // Asked again while it is on its way (a resend beside a confirm): the one request answers both.
    const under = this.sending.get(entry.id)
    if (under) return under
    const sent = this.sendOnce(connection, entry, options).finally(() =>
      this.sending.delete(entry.id),
    )
    this.sending.set(entry.id, sent)
    return sent
  }

  private async sendOnce(
    connection: Connection,
    entry: SubmissionHead,
    options: { signal?: AbortSignal },
  ): Promise<SubmissionHead> {
    if (entry.state === 'accepted' || entry.state === 'refused') return entry
    if (entry.historyKey !== connection.historyKey) {
      throw new EngineError(
        'conflict',
        'This submission belongs to another environment.',
        `Send it from “${entry.environment}”.`,
      )
    }
    const rows = await this.rowsToSend(entry)
    this.table.markSent(entry.id, Date.now())
    this.notify(this.head(entry.id))
    try {
      const answer = await sendToService(connection, entry, rows, options.signal)
      this.table.markAccepted(entry.id, answer, Date.now())
      const accepted = this.head(entry.id)
      this.notify(accepted)
      return accepted
    } catch (error) {
      if (error instanceof ApiError && isDefinitiveRefusal(error))
        this.table.markRefused(entry.id, error.message, Date.now())
      else
        this.table.noteError(
          entry.id,
          error instanceof Error ? error.message : String(error),
          Date.now(),
        )
      this.notify(this.head(entry.id))
      throw error
    }
  }

  /**
   * The rows `entry` goes with, exactly as journaled; rows that cannot be (missing, changed) make
   * it a refused entry, so the same rows confirmed again go as a new request.
   */
  private async rowsToSend(entry: SubmissionHead): Promise<InputRow[] | JsonTexts> {
    if (!entry.rowsSha256) return this.get(entry.id).rows
    try {
      return await journaledTexts(this.table.rows, entry)
    } catch (error) {
      if (error instanceof RowsNotResendableError) {
        this.table.markRefused(entry.id, error.message, Date.now())
        this.notify(this.head(entry.id))
      }
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

  private notify(entry: SubmissionHead) {
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
    return this.table.inputFilenames(historyKey, runIds)
  }

  /** The latest accepted submission with this fingerprint (an identical one already sent). */
  acceptedLike(historyKey: string, fingerprint: string): Submission | null {
    return this.table.latestAccepted(historyKey, fingerprint)
  }

  /** The identical submission still waiting for an answer, if any. */
  unansweredLike(historyKey: string, fingerprint: string): Submission | null {
    return this.table.firstUnanswered(historyKey, fingerprint)
  }

  /** The parts journaled for a plan, by its fingerprint (parts.ts), refused ones left out. */
  partsOf(historyKey: string, fingerprint: string): SubmissionHead[] {
    return this.table.partsOf(historyKey, fingerprint)
  }

  /** Accepted submissions of one template or listing, newest first. */
  acceptedOfTarget(
    historyKey: string,
    kind: 'template' | 'listing',
    targetId: string,
    limit = 5,
  ): Submission[] {
    return this.table.acceptedOfTarget(historyKey, kind, targetId, limit)
  }

  /**
   * Every submission of this environment waiting for an answer that this process is not sending
   * now (a crash's, a lost answer's, another process's), oldest first, without its rows.
   */
  unanswered(historyKey: string): SubmissionHead[] {
    return this.table.unanswered(historyKey).filter((entry) => !this.sending.has(entry.id))
  }

  /**
   * After a crash or a lost answer: the runs the service made for submissions sent without an
   * answer, found in its run list (found-runs.ts) and recorded as their answers. It sends
   * nothing, so it never starts a paid run; what it cannot tell for sure stays unanswered, and
   * an unreachable service leaves the journal as it was.
   */
  async findLostRuns(connection: Connection, signal?: AbortSignal): Promise<Submission[]> {
    const sent = this.unanswered(connection.historyKey).filter((e) => e.state === 'sent')
    if (sent.length === 0) return []
    let runs: RunSummary[]
    try {
      runs = (await connection.client.listRuns({ pageSize: 200 }, { signal })).items
    } catch {
      return []
    }
    const inJournal = (runId: string) => this.sheetOfRun(connection.historyKey, runId) !== null
    const found: Submission[] = []
    for (const [id, answer] of findLostAnswers(sent, runs, inJournal)) {
      if (!this.table.markAccepted(id, answer, Date.now(), true)) continue
      const entry = this.get(id)
      this.notify(entry)
      found.push(entry)
    }
    return found
  }

  /** Resends every unanswered submission of the environment (after a crash or a lost answer). */
  async resendUnanswered(connection: Connection): Promise<SubmissionHead[]> {
    const done: SubmissionHead[] = []
    for (const entry of this.unanswered(connection.historyKey)) {
      try {
        done.push(await this.send(connection, entry))
      } catch {
        // Stays unanswered; the next resend tries again.
      }
    }
    return done
  }

  /** A submission without its rows: its state, its run, its answer. */
  head(id: number): SubmissionHead {
    const entry = this.table.headById(id)
    if (!entry) throw missing(id)
    return entry
  }

  get(id: number): Submission {
    const entry = this.table.byId(id)
    if (!entry) throw missing(id)
    return entry
  }

  /**
   * Changes whenever a submission is accepted, by this process or another one sharing the
   * history (the command line next to the app). A local read: no request to any service.
   */
  acceptedMark(): string {
    const { count, latestAtMs } = this.table.acceptedCount()
    return `${count}:${latestAtMs}`
  }

  /** The runs of a batch (a pilot, then the rest of its rows), the first one first. */
  batchRuns(historyKey: string, firstRunId: string): string[] {
    return this.table.batchRuns(historyKey, firstRunId)
  }

  /** The runs that sent a run's set-aside rows once fixed (its follow-ups), oldest first. */
  followUpsOf(historyKey: string, runId: string): string[] {
    return runId ? this.table.followUpsOf(historyKey, runId) : []
  }

  /** The accepted submission that created a run, when it was made on this device. */
  byRun(historyKey: string, runId: string): Submission | null {
    return this.table.latestOfRun(historyKey, runId)
  }

  /** byRun with the rows left in the journal: `rowsWindow` reads them a window at a time. */
  sheetOfRun = (historyKey: string, runId: string) => this.table.sheetOfRun(historyKey, runId)

  /** Rows `start` to `end` (excluded) of a journaled submission. */
  rowsWindow: SubmissionsTable['rowsWindow'] = (entry, start, end) =>
    this.table.rowsWindow(entry, start, end)

  /**
   * The history, newest first. `search` matches file name, template or listing, run id, status
   * and date (YYYY-MM-DD) alike; `alsoTargets` are templates and listings whose names matched.
   */
  search(
    query: Omit<Parameters<SubmissionsTable['search']>[0], 'limit'> & { limit?: number } = {},
  ) {
    return this.table.search({ ...query, limit: query.limit ?? 200 })
  }

  /** Every template and listing the journal names, once each, the latest sent to first. */
  targets = () => this.table.targets()

  private async keepCopy(entry: SubmissionHead, inputPath: string): Promise<string> {
    await mkdir(this.inputsDir, { recursive: true })
    const target = join(this.inputsDir, `${entry.id}-${basename(entry.inputFilename || inputPath)}`)
    try {
      await copyFileAtomically(inputPath, target)
      return target
    } catch {
      return ''
    }
  }
}

function missing(id: number): EngineError {
  return new EngineError(
    'not-found',
    `There is no submission ${id} in the history.`,
    'See `skill-runner history`.',
  )
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
