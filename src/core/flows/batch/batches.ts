/**
 * Batches: a buyer's sheet (its SHA-256, the sheet read and the confirmed mapping) sent to one
 * target, and every sheet row followed across all the runs made from it. A plan names its batch
 * (or the sheet a new one starts from) and how it sends (`BatchLink`); confirming joins the
 * journaled submission to it before anything is sent. The state of every row is worked out from
 * the journal and each run's outcomes (row-states.ts); outcomes of runs not yet ended are asked
 * of the service when the state is asked for, and kept, so a batch reads offline as last seen.
 */
import { randomId } from '../../files/hashing'
import type { BatchCounts, BatchSendKind } from '../../../shared/bridge'
import { isTerminalStatus, type RunSummary } from '../../../shared/contract'
import { batchSummary, type BatchTally } from '../../../shared/format'
import type { Connection } from '../../environments/connection'
import { transaction, type Db } from '../../storage/db'
import type { History } from '../../storage/run-history'
import { RunRowsTable } from '../../storage/tables/run-rows'
import { readStoredRun } from '../watch/stored-detail'
import { BatchesTable, type BatchRecord, type BatchSend } from '../../storage/tables/batches'
import { outcomesOf, PREVIEW_CHARS, type RunParts } from './run-outcomes'
import { batchRowStates, failedFirst, tallyOf, type BatchRow } from './row-states'

export type { BatchRecord, BatchSend } from '../../storage/tables/batches'

/** The sheet a new batch starts from, as the plan read it. */
export interface BatchSheet {
  sha256: string
  sheet: string
  mapping: Record<string, string | null>
  fileName: string
  /** Every data row the read found, valid or set aside, by sheet row. */
  sheetRows: number[]
}

/** Which batch a plan's rows belong to, and how they are sent. */
export interface BatchLink {
  /** The batch, or null: confirming starts one from `sheet`. */
  batchId: string | null
  kind: BatchSendKind
  sheet?: BatchSheet | undefined
  /** Rows the read set aside, by sheet row with their first problems. */
  setAside?: { sheetRow: number; problems: string[] }[] | undefined
}

/** A batch with every sheet row's state. */
export interface BatchState {
  batch: BatchRecord
  sends: BatchSend[]
  /** The sends the service accepted, each a run, in the order sent. */
  runs: BatchSend[]
  rows: BatchRow[]
  tally: BatchTally
  /** The tally as the window and `batch show` count it. */
  counts: BatchCounts
  summary: string
  /** Some runs could not be asked about: their rows are as last seen. */
  stale: boolean
}

/**
 * How long a run's detail stored by this engine stands for the service's, for a batch's state,
 * by the run's rows: 10 s, 10 ms a row past 1,000 rows, at most a minute. A run's page asks for
 * its batch at each update of any part, and each part still going is a detail of up to 25 MB to
 * read again; the bigger the part, the longer its reading stands. A reading never stands for a
 * run's end (upToDate).
 */
export function storedFreshMs(rowCount: number): number {
  return Math.min(60_000, Math.max(10_000, rowCount * 10))
}

/** Batch states kept for the batch page's windows of rows; a few, each dropped when it changes. */
const KEPT_STATES = 4

export class Batches {
  private readonly table: BatchesTable
  private readonly rows: RunRowsTable
  /**
   * The last states made, by batch, with the mark of what they were made from (a state made
   * while a run could not be read is not kept). The batch page asks for its rows a window at a
   * time, and a run's page asks at each update; a 100,000-row state takes the engine's thread
   * for a second or more. A state is used again only while nothing it was made from changed.
   */
  private readonly kept = new Map<string, { mark: string; state: BatchState }>()

  /** The stored reading each run's outcomes were last made from (its seq), by origin and run. */
  private readonly outcomesFrom = new Map<string, number>()

  /** The reading of a run's outcomes under way, by origin and run: asks at once share it. */
  private readonly outcomeReads = new Map<string, Promise<void>>()

  constructor(
    private readonly db: Db,
    private readonly history: Pick<History, 'keptVersions' | 'seenRun'>,
    rows?: RunRowsTable,
    private readonly now: () => number = Date.now,
  ) {
    this.table = new BatchesTable(db)
    this.rows = rows ?? new RunRowsTable(db)
  }

  byId(id: string): BatchRecord | null {
    return this.table.byId(id)
  }

  /** Every submission of a batch, in the order journaled. */
  sendsOf(batchId: string): BatchSend[] {
    return this.table.sends(batchId)
  }

  /** The batch a run sent from this computer belongs to, or null. */
  ofRun(historyKey: string, runId: string): BatchRecord | null {
    const id = this.table.idOfRun(historyKey, runId)
    return id ? this.table.byId(id) : null
  }

  /** The batch of this sheet sent to this target, or null when none was sent yet. */
  ofSheet(
    historyKey: string,
    target: { kind: 'template' | 'listing'; id: string },
    sha256: string,
    sheet: string,
  ): BatchRecord | null {
    if (!sha256) return null
    return this.table.ofSheet(historyKey, target.kind, target.id, sha256, sheet)
  }

  /** The newest batch of a workbook by its content, sent to `target` or to anything. */
  ofFile(
    historyKey: string,
    sha256: string,
    target?: { kind: 'template' | 'listing'; id: string },
  ): BatchRecord | null {
    return this.table.ofContent(historyKey, sha256, target)
  }

  /**
   * Joins a journaled submission to its batch (making the batch first when the link names
   * none), and records the rows the read set aside. Safe to repeat for the same submission.
   */
  join(
    submission: {
      id: number
      historyKey: string
      targetKind: 'template' | 'listing'
      targetId: string
    },
    link: BatchLink,
  ): string {
    return transaction(this.db, () => {
      let id = link.batchId
      if (!id) {
        id = randomId()
        const sheet = link.sheet
        this.table.insert({
          id,
          historyKey: submission.historyKey,
          targetKind: submission.targetKind,
          targetId: submission.targetId,
          workbookSha256: sheet?.sha256 ?? '',
          sheet: sheet?.sheet ?? '',
          mapping: sheet?.mapping ?? {},
          inputFilename: sheet?.fileName ?? '',
          sheetRows: sheet?.sheetRows ?? [],
          createdAtMs: this.now(),
        })
      } else if (link.sheet) {
        this.table.complete(id, link.sheet.sheet, link.sheet.mapping, link.sheet.sheetRows)
      }
      this.table.setSubmissionBatch(submission.id, id, link.kind)
      if (link.setAside?.length) this.table.setAside(id, link.setAside)
      return id
    })
  }

  /** Keeps what a run's detail says of each row, for the batches it is in. */
  async recordOutcomes(historyKey: string, detail: RunParts, rowCount: number): Promise<void> {
    this.table.putOutcomes(historyKey, await outcomesOf(detail, rowCount), this.now())
  }

  /**
   * Reads a run's detail into the history as it arrives and keeps what it says of each row,
   * going through its rows and outputs a page at a time: a run of 100,000 rows is never held.
   * A reading stored by this engine less than storedFreshMs ago is taken instead (the watcher
   * of the run's open page has just read it; reading it again doubled each look's work), unless
   * the history has since seen the run move on (its end, above all: the page asks once more when
   * the run ends, and must not be answered from a reading of it still going); outcomes already
   * made from a reading are not made again.
   */
  private async readOutcomes(
    connection: Connection,
    runId: string,
    rowCount: number,
    signal: AbortSignal | undefined,
  ) {
    const key = `${connection.historyKey}\u0000${runId}`
    // One reading of a run at a time: the pages of a sheet's parts each ask for the batch when a
    // run moves, and each ask would otherwise read an ended part's whole detail (25 MB at 10,000
    // rows) at once. An ask that finds one under way waits for it, then finds its reading fresh;
    // if that one failed (its own asker gave up), it reads for itself.
    for (let running = this.outcomeReads.get(key); running; running = this.outcomeReads.get(key))
      await running.catch(() => undefined)
    signal?.throwIfAborted()
    const reading = this.readOutcomesNow(connection, key, runId, rowCount, signal)
    this.outcomeReads.set(key, reading)
    try {
      await reading
    } finally {
      if (this.outcomeReads.get(key) === reading) this.outcomeReads.delete(key)
    }
  }

  /** readOutcomes, with no other reading of the run (`key`) under way. */
  private async readOutcomesNow(
    connection: Connection,
    key: string,
    runId: string,
    rowCount: number,
    signal: AbortSignal | undefined,
  ) {
    const { historyKey } = connection
    let reading = this.rows.lastReading(historyKey, runId)
    if (
      reading &&
      this.now() - reading.atMs < storedFreshMs(rowCount) &&
      this.upToDate(historyKey, reading.run)
    ) {
      if (this.outcomesFrom.get(key) === reading.seq) return
    } else {
      const where = { historyKey, runId, keepUpTo: 0 }
      await readStoredRun(connection.client, this.rows, where, { signal })
      reading = this.rows.lastReading(historyKey, runId)!
    }
    await this.recordOutcomes(
      historyKey,
      {
        run: reading.run,
        tasks: this.rows.tasksOf(historyKey, runId),
        artifacts: this.rows.outputsOf(historyKey, runId, PREVIEW_CHARS),
      },
      rowCount,
    )
    this.outcomesFrom.set(key, reading.seq)
  }

  /**
   * Whether a reading of a run can stand for what the history last saw of it. While the run goes
   * on, a recent reading stands even though the list has since seen more rows finish: the run's
   * page asks for its batch at each update, and reading the detail again each time put a whole
   * detail read behind every second of a big run. A reading from before the run ended (or from
   * before it went on again) never stands for its end.
   */
  private upToDate(historyKey: string, read: RunSummary): boolean {
    const seen = this.history.seenRun(historyKey, read.runId)
    if (!seen) return true
    const ended = isTerminalStatus(seen.status)
    if (ended !== isTerminalStatus(read.status)) return false
    return !ended || seen.updatedAtUnix <= read.updatedAtUnix
  }

  /**
   * Every sheet row's state, with its output's preview when `previews`. Runs not seen ended yet
   * are asked about first (a failure leaves them as last seen, said by `stale`), unless `offline`.
   * A state made here is kept for the asks that follow (the batch page asks a window at a time),
   * unless `keep` is false: an ask that needs only the sentence or the counts, once, would
   * otherwise leave a state of 100,000 rows (about 16 MB) held for as long as the app runs, and
   * the JavaScript heap grows between collections in proportion to what it holds.
   */
  async state(
    connection: Connection,
    batchId: string,
    options: {
      signal?: AbortSignal | undefined
      offline?: boolean
      previews?: boolean
      keep?: boolean
    } = {},
  ): Promise<BatchState | null> {
    const batch = this.table.byId(batchId)
    if (!batch) return null
    const sends = this.table.sends(batchId)
    const runs = sends.filter((s) => s.state === 'accepted' && s.runId)
    const runIds = runs.map((s) => s.runId)
    const previews = options.previews === true
    const chosen = this.chosenVersions(connection.historyKey, sends)
    let stale = false
    if (!options.offline) {
      const ended = this.table.endedRuns(connection.historyKey, runIds)
      for (const send of sends) {
        if (send.state !== 'accepted' || !send.runId || ended.has(send.runId)) continue
        try {
          await this.readOutcomes(connection, send.runId, send.rowCount, options.signal)
        } catch (error) {
          if (options.signal?.aborted) throw error
          stale = true
        }
      }
    }
    // What the state is made from; a state made from the same is used again, read with the
    // service or without: the page of a part asks at each update, and a reading of a part
    // stands for up to a minute (storedFreshMs), so most asks find nothing new to make a
    // 100,000-row state of again.
    const mark = [
      previews,
      sends.map((s) => `${s.submissionId}:${s.state}:${s.runId}`).join(','),
      [...chosen].join(','),
      this.table.changeMark(connection.historyKey, batchId, runIds),
    ].join('|')
    const kept = this.kept.get(batchId)
    if (!stale && kept?.mark === mark) return kept.state
    const outcomes = this.table.outcomes(connection.historyKey, runIds, previews)
    const input = {
      sheetRows: batch.sheetRows,
      setAside: this.table.setAsideRows(batchId),
      sends,
      outcomes,
      chosen,
    }
    const rows = batchRowStates(input)
    const tally = tallyOf(rows, failedFirst(input))
    const { recovered: _recovered, ...counts } = tally
    const state = { batch, sends, runs, rows, tally, counts, summary: batchSummary(tally), stale }
    if (!stale && options.keep !== false) this.keep(batchId, mark, state)
    return state
  }

  private keep(batchId: string, mark: string, state: BatchState) {
    this.kept.delete(batchId)
    this.kept.set(batchId, { mark, state })
    if (this.kept.size > KEPT_STATES) this.kept.delete(this.kept.keys().next().value!)
  }

  /** The versions the buyer chose to keep (kept per run and row index), by sheet row. */
  private chosenVersions(historyKey: string, sends: BatchSend[]): Map<number, string> {
    const chosen = new Map<number, string>()
    for (const send of sends) {
      if (!send.runId) continue
      for (const [index, kept] of this.history.keptVersions(historyKey, send.runId)) {
        const sheetRow = send.rowNumbers[index]
        if (sheetRow !== undefined) chosen.set(sheetRow, kept)
      }
    }
    return chosen
  }
}
