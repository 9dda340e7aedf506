/**
 * Plans made through the batch: every paid send of a buyer's sheet knows which batch it belongs
 * to (the sheet by its SHA-256, the sheet read, the confirmed mapping), sends rows under the
 * sheet's own row numbers, and says before the consent which of its rows were already paid for.
 * A fresh read of a sheet finds its batch here (sheetBatch); the rest after a pilot and rows
 * chosen on the batch page read the sheet again with the batch's sheet and mapping
 * (planFromBatch); a retry keeps only rows whose latest version did not succeed
 * (stillFailedRows).
 */
import type { BatchSendKind } from '../../../shared/bridge'
import type { RunTarget } from '../../../shared/run-target'
import { plural } from '../../../shared/format/amounts'
import { sheetRowsText } from '../../../shared/format'
import type { Connection } from '../../environments/connection'
import { EngineError } from '../../errors'
import type { BatchLink, BatchRecord, BatchState } from '../batch/batches'
import type { PaidBefore, SpendServices } from './plan'
import type { ParsedWorkbook } from './submission-inputs'
import { hashFile } from './uploads'

/** The template or listing a target names, as batches file it. */
export function batchTargetOf(target: RunTarget): {
  kind: RunTarget['kind']
  id: string
} {
  return target.kind === 'template'
    ? { kind: 'template', id: target.templateId }
    : { kind: 'listing', id: target.listingId }
}

/** The rows of `sending` the batch already paid for (succeeded, or still running). */
export function paidBeforeOf(state: BatchState, sending: readonly number[]): PaidBefore | null {
  const wanted = new Set(sending)
  const paid = state.rows.filter((r) => r.paid && wanted.has(r.sheetRow))
  if (paid.length === 0) return null
  const runs = new Set(paid.map((r) => r.keptRunId || r.runId))
  const sends = state.sends.filter((s) => s.runId && runs.has(s.runId))
  const sheetRows = paid.map((r) => r.sheetRow)
  return {
    sheetRows,
    runIds: sends.map((s) => s.runId),
    words: paidBeforeWords(
      sheetRows.length,
      sending.length,
      sends.map((s) => s.kind),
    ),
  }
}

/** "4 of these 30 rows were sent in the pilot and succeeded: they would be paid again." */
function paidBeforeWords(n: number, planRows: number, kinds: string[]): string {
  const where =
    kinds.length === 1 && kinds[0] === 'pilot'
      ? 'in the pilot'
      : kinds.length === 1
        ? 'in an earlier run'
        : `in ${kinds.length} earlier runs`
  const which =
    n === planRows
      ? n === 1
        ? 'This row was'
        : `All ${n} rows were`
      : `${n} of these ${plural(planRows, 'row')} ${n === 1 ? 'was' : 'were'}`
  return `${which} sent ${where} and succeeded or ${n === 1 ? 'is' : 'are'} still running: ${n === 1 ? 'it' : 'they'} would be paid again.`
}

/** Every data row of a read sheet, valid or set aside, in sheet order. */
function sheetRowsOf(parsed: ParsedWorkbook): number[] {
  const aside = parsed.setAside?.list?.map((r) => r.sheetRow) ?? []
  if (aside.length === 0) return [...parsed.rowNumbers]
  return [...new Set([...parsed.rowNumbers, ...aside])].sort((a, b) => a - b)
}

/**
 * The batch a fresh read of a sheet sends in (the batch of the run whose set-aside rows these
 * are, the batch of the same sheet sent to the same target before, or a new one), and which of
 * the rows to send it already paid for.
 */
export async function sheetBatch(
  services: Pick<SpendServices, 'batches'>,
  connection: Connection,
  read: {
    sheetFile: string
    fileName: string
    target: RunTarget
    parsed: ParsedWorkbook
    sending: number[]
    kind: BatchSendKind
    followUpOf?: string | undefined
    /** The rows are named by their rows in the buyer's own sheet (a set-aside workbook's are). */
    inOwnSheet?: boolean
  },
  signal?: AbortSignal,
): Promise<{ batch: BatchLink; paidBefore: PaidBefore | null }> {
  const setAside = read.parsed.setAside?.list
  // Fixed rows that say their own sheet rows go back to their batch; an older workbook to fix,
  // which does not, is a sheet of its own (its rows cannot be told from the first sheet's).
  const backToBatch = read.followUpOf !== undefined && read.inOwnSheet === true
  let existing: BatchRecord | null
  let sha256 = ''
  if (backToBatch) existing = services.batches.ofRun(connection.historyKey, read.followUpOf!)
  else {
    sha256 = await hashFile(read.sheetFile, signal).catch(() => '')
    existing = services.batches.ofSheet(
      connection.historyKey,
      batchTargetOf(read.target),
      sha256,
      read.parsed.sheet ?? '',
    )
  }
  const sheet = backToBatch
    ? undefined
    : {
        sha256,
        sheet: read.parsed.sheet ?? '',
        mapping: read.parsed.mapping?.applied ?? {},
        fileName: read.fileName,
        sheetRows: sheetRowsOf(read.parsed),
      }
  const batch: BatchLink = {
    batchId: existing?.id ?? null,
    kind: read.followUpOf ? 'follow-up' : read.kind,
    sheet,
    setAside,
  }
  if (!existing) return { batch, paidBefore: null }
  const state = await services.batches.state(connection, existing.id, { signal })
  return { batch, paidBefore: state ? paidBeforeOf(state, read.sending) : null }
}

/** The batch a run belongs to, refusing a run this computer did not send from a sheet. */
export function batchOfRun(
  services: Pick<SpendServices, 'batches'>,
  connection: Connection,
  runId: string,
): BatchRecord {
  const batch = services.batches.ofRun(connection.historyKey, runId)
  if (batch) return batch
  throw new EngineError(
    'not-found',
    `Run ${runId} was not sent from a sheet on this computer, so which rows it sent is not known here.`,
    'Send the rows you need from the workbook, by their row numbers.',
  )
}

/** How rows of a run are sent again within its batch (none: the run was not sent here). */
export function batchLinkOfRun(
  services: Pick<SpendServices, 'batches'>,
  connection: Connection,
  runId: string,
  kind: BatchSendKind,
): BatchLink | undefined {
  const batch = services.batches.ofRun(connection.historyKey, runId)
  return batch ? { batchId: batch.id, kind } : undefined
}

/** The rows a batch has never sent and did not set aside, in sheet order. */
export function unsentRows(state: BatchState): number[] {
  return state.rows.filter((r) => r.state === 'not-sent').map((r) => r.sheetRow)
}

/**
 * Of a run's failed rows (by sheet row), those whose latest version in the batch did not
 * succeed. With none left, refuses in words that say where each went.
 */
export async function stillFailedRows(
  services: Pick<SpendServices, 'batches'>,
  connection: Connection,
  runId: string,
  failed: number[],
  signal?: AbortSignal,
): Promise<number[]> {
  const batch = services.batches.ofRun(connection.historyKey, runId)
  if (!batch) return failed
  const state = await services.batches.state(connection, batch.id, { signal })
  if (!state) return failed
  const byRow = new Map(state.rows.map((r) => [r.sheetRow, r]))
  const left = failed.filter((n) => {
    const row = byRow.get(n)
    return !row || row.state === 'failed'
  })
  if (left.length > 0) return left
  const elsewhere = failed.map((n) => byRow.get(n)!)
  const running = elsewhere.filter((r) => r.state === 'pending').map((r) => r.sheetRow)
  throw new EngineError(
    'refused',
    `Nothing was sent: no failed row of run ${runId} is left to retry. ${
      running.length > 0
        ? `${capital(sheetRowsText(running))} ${running.length === 1 ? 'is' : 'are'} being sent again in another run; the others were sent again and succeeded.`
        : `${capital(sheetRowsText(failed))} ${failed.length === 1 ? 'was' : 'were'} sent again in a later run and succeeded.`
    }`,
    'Open the batch to see each row’s latest result; send a row again only if you want to pay for it again.',
  )
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)
