/**
 * Retrying the failed rows of a finished run made from this device, as a plan to confirm. For a
 * listing the fee and terms are looked up again (the buyer's view); the rows are the ones kept
 * in the history, named as they were (spreadsheet rows when they came from a workbook).
 */
import { isTerminalStatus, type RunDetail } from '../../../shared/contract'
import type { Connection } from '../../environments/connection'
import { EngineError } from '../../errors'
import type { Plan, SpendServices } from './plan'
import { editedRows, fixableRows, schemaOf, type RowEdit } from './retry-edits'
import { editsFromWorkbook, type CorrectedFrom } from './retry-workbook'
import { batchLinkOfRun, stillFailedRows } from './batch-plans'
import { rowsAgainPlan, submissionOfRun } from './rows-again'

/** The run's detail once it has ended, refusing a run still going or one with no failed rows. */
async function endedWithFailures(
  services: Pick<SpendServices, 'history'>,
  connection: Connection,
  runId: string,
  signal?: AbortSignal,
): Promise<{ detail: RunDetail; failed: Set<number> }> {
  const detail = await connection.client.run(runId, { signal })
  services.history.recordRuns(connection.historyKey, [detail.run])
  if (!isTerminalStatus(detail.run.status)) {
    throw new EngineError(
      'conflict',
      `Run ${runId} is still ${detail.run.status}.`,
      'Wait until it has finished, then retry its failed rows.',
      { action: 'watch-run' },
    )
  }
  const failed = new Set(
    detail.tasks.filter((t) => t.status === 'failed').map((t) => t.sourceRowIndex),
  )
  if (failed.size === 0) {
    throw new EngineError('refused', `Run ${runId} has no failed rows.`, 'Nothing to retry.')
  }
  return { detail, failed }
}

/**
 * The failed rows as a plan, with the user's fixes applied and checked like a workbook's cells:
 * typed in the app (`edits`), or taken from the corrected workbook (retry-workbook.ts). A fix
 * that does not fit gives a plan that cannot be confirmed. Fixed rows are
 * other content, so their fingerprint differs from the unfixed retry's (an earlier retry does not
 * block them) while the same fixes sent again after a lost answer find the same request.
 */
export async function planRetryFailed(
  services: SpendServices,
  connection: Connection,
  runId: string,
  signal?: AbortSignal,
  fixes: RowEdit[] | CorrectedFrom = [],
): Promise<Plan> {
  const original = submissionOfRun(services, connection, runId)
  const { detail, failed } = await endedWithFailures(services, connection, runId, signal)
  const failedIndexes = original.rows.map((_, i) => i).filter((i) => failed.has(i))
  // Rows fixed and sent again since, and that succeeded, are not paid for a second time.
  const left = new Set(
    await stillFailedRows(
      services,
      connection,
      runId,
      failedIndexes.map((i) => original.rowNumbers[i] ?? i + 1),
      signal,
    ),
  )
  const indexes = failedIndexes.filter((i) => left.has(original.rowNumbers[i] ?? i + 1))
  const rowNumbers = indexes.map((i) => original.rowNumbers[i] ?? i + 1)
  const run = { runId, original, indexes, rowNumbers }
  const schema = await schemaOf(services, connection, original, signal)
  const edits = Array.isArray(fixes) ? fixes : await editsFromWorkbook(schema, run, fixes)
  const { rows, problems } = editedRows(schema, run, edits)
  const errors = new Map(detail.tasks.map((t) => [t.sourceRowIndex, t.errorMessage]))
  const fixable = fixableRows(
    schema,
    original,
    indexes.map((index, i) => ({ index, row: rowNumbers[i]!, error: errors.get(index) ?? '' })),
  )
  const validation =
    problems.length > 0 ? { valid: false, fileErrors: [], rowErrors: problems } : undefined
  return rowsAgainPlan(
    services,
    connection,
    { ...run, detail, rows },
    () => ({
      batch: batchLinkOfRun(services, connection, runId, 'retry'),
      fixableRows: fixable,
      ...(validation ? { validation } : {}),
      ...(Array.isArray(fixes) ? {} : { fixesFromWorkbook: edits }),
    }),
    signal,
  )
}
