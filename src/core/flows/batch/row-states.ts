/**
 * Every sheet row's state across a batch's sends, worked out from the journal (which rows each
 * send took, by sheet row) and each run's outcomes as last seen. Pure: no I/O, no clock.
 *
 * A row never sent is `not-sent`, or `set-aside` with its problems. A sent row is `pending`
 * while its latest send has not ended; otherwise its state is that of the version kept: the one
 * the buyer chose, else the newest that succeeded, else the latest.
 */
import type { BatchRowState } from '../../../shared/bridge'
import type { BatchTally } from '../../../shared/format'
import type { BatchSend, RunOutcomes } from '../../storage/tables/batches'

/** One sheet row across the batch. */
export interface BatchRow {
  sheetRow: number
  state: BatchRowState
  sends: number
  /** The run of the latest send ('' when never sent or not yet answered). */
  runId: string
  /** The run of the version kept ('' when none). */
  keptRunId: string
  /** Its index in the kept run's submission (-1 when none). */
  keptIndex: number
  problems: string[]
  preview: string
  /** Whether an accepted send of it succeeded or is still running (it is paid for). */
  paid: boolean
}

export interface RowStatesInput {
  /** Every data row of the sheet ([] when not known: then the rows ever sent or set aside). */
  sheetRows: readonly number[]
  setAside: ReadonlyMap<number, string[]>
  sends: readonly BatchSend[]
  outcomes: ReadonlyMap<string, RunOutcomes>
  /** The version the buyer chose to keep, by sheet row → run id. */
  chosen?: ReadonlyMap<number, string>
}

/** One empty list shared by every row without a problem (a sheet can have 100,000 of them). */
const NO_PROBLEMS: string[] = []

interface Version {
  /** The service accepted the send (a run exists and is paid for). */
  accepted: boolean
  runId: string
  index: number
  letter: string
  outcomes: RunOutcomes | undefined
}

/** A send's letter for its row `index`: pending until its run's outcome is known. */
function letterOf(send: BatchSend, outcomes: RunOutcomes | undefined, index: number): string {
  if (send.state !== 'accepted') return 'p'
  return outcomes?.outcomes[index] ?? 'p'
}

function keptOf(versions: Version[], chosen: string | undefined): Version {
  if (chosen) {
    const found = versions.find((v) => v.runId === chosen)
    if (found) return found
  }
  for (let i = versions.length - 1; i >= 0; i -= 1)
    if (versions[i]!.letter === 's') return versions[i]!
  return versions[versions.length - 1]!
}

function sentRow(sheetRow: number, versions: Version[], chosen: string | undefined): BatchRow {
  const latest = versions[versions.length - 1]!
  const kept = keptOf(versions, chosen)
  const state: BatchRowState =
    latest.letter === 'p' ? 'pending' : kept.letter === 's' ? 'succeeded' : 'failed'
  const error = state === 'failed' ? (latest.outcomes?.errors[latest.index] ?? '') : ''
  return {
    sheetRow,
    state,
    sends: versions.length,
    runId: latest.runId,
    keptRunId: kept.letter === 's' ? kept.runId : '',
    keptIndex: kept.letter === 's' ? kept.index : -1,
    problems: error ? [error] : NO_PROBLEMS,
    preview: kept.letter === 's' ? (kept.outcomes?.previews[kept.index] ?? '') : '',
    // A send never answered is not paid yet: the journal sends it again under the same id.
    paid: versions.some((v) => v.accepted && (v.letter === 's' || v.letter === 'p')),
  }
}

/** Each sheet row's state, in sheet order. */
export function batchRowStates(input: RowStatesInput): BatchRow[] {
  const versions = new Map<number, Version[]>()
  for (const send of input.sends) {
    if (send.state === 'refused') continue
    const outcomes = send.runId ? input.outcomes.get(send.runId) : undefined
    send.rowNumbers.forEach((sheetRow, index) => {
      const version = {
        accepted: send.state === 'accepted',
        runId: send.runId,
        index,
        letter: letterOf(send, outcomes, index),
        outcomes,
      }
      const list = versions.get(sheetRow)
      if (list) list.push(version)
      else versions.set(sheetRow, [version])
    })
  }
  let universe: readonly number[] = input.sheetRows
  if (universe.length === 0)
    universe = [...new Set([...versions.keys(), ...input.setAside.keys()])].sort((a, b) => a - b)
  return universe.map((sheetRow) => {
    const sent = versions.get(sheetRow)
    if (sent) return sentRow(sheetRow, sent, input.chosen?.get(sheetRow))
    const problems = input.setAside.get(sheetRow)
    return {
      sheetRow,
      state: problems ? 'set-aside' : 'not-sent',
      sends: 0,
      runId: '',
      keptRunId: '',
      keptIndex: -1,
      problems: problems ?? NO_PROBLEMS,
      preview: '',
      paid: false,
    }
  })
}

/** The batch's counts, with the rows that succeeded only after being sent again. */
export function tallyOf(rows: readonly BatchRow[], firstFailed: ReadonlySet<number>): BatchTally {
  const t: BatchTally = {
    rows: rows.length,
    notSent: 0,
    setAside: 0,
    pending: 0,
    succeeded: 0,
    failed: 0,
    sentAgain: 0,
    recovered: 0,
  }
  for (const row of rows) {
    if (row.state === 'not-sent') t.notSent += 1
    else if (row.state === 'set-aside') t.setAside += 1
    else if (row.state === 'pending') t.pending += 1
    else if (row.state === 'succeeded') t.succeeded += 1
    else t.failed += 1
    if (row.sends > 1) t.sentAgain += 1
    if (row.state === 'succeeded' && firstFailed.has(row.sheetRow)) t.recovered += 1
  }
  return t
}

/** The sheet rows whose first send ended without success. */
export function failedFirst(input: RowStatesInput): Set<number> {
  const seen = new Set<number>()
  const failed = new Set<number>()
  for (const send of input.sends) {
    if (send.state === 'refused') continue
    const outcomes = send.runId ? input.outcomes.get(send.runId) : undefined
    send.rowNumbers.forEach((sheetRow, index) => {
      if (seen.has(sheetRow)) return
      seen.add(sheetRow)
      const letter = letterOf(send, outcomes, index)
      if (letter === 'f' || letter === 'c') failed.add(sheetRow)
    })
  }
  return failed
}
