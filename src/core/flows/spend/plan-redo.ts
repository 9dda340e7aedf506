/**
 * Redoing chosen rows of a run made from this device (outputs the user found poor), as a plan to
 * confirm like any paid run. Rows are named as the user sees them: spreadsheet rows when they came
 * from a workbook, otherwise their position in the submission. The redo is linked to the run it
 * redoes (retryOfRunId), and its fingerprint names which redo of that run it is: an earlier
 * accepted submission of the same rows does not block it, while a redo whose answer was lost is
 * sent again with the same request, so one redo never makes two runs.
 */
import { createHash } from 'node:crypto'
import type { Connection } from '../../environments/connection'
import { EngineError } from '../../errors'
import type { History } from '../../storage/run-history'
import type { Plan, SpendServices } from './plan'
import { batchLinkOfRun } from './batch-plans'
import { rowsAgainPlan, submissionOfRun } from './rows-again'
import type { Submission } from './submissions'

export type RedoServices = SpendServices & { history: Pick<History, 'retriedBy'> }

/** The 0-based indexes of the named rows, refusing a number the run does not have. */
export function redoIndexes(original: Submission, runId: string, numbers: number[]): number[] {
  const fromWorkbook = original.rowNumbers.length > 0
  const indexOf = new Map(
    original.rows.map((_, i) => [fromWorkbook ? original.rowNumbers[i]! : i + 1, i]),
  )
  const missing = numbers.filter((n) => !indexOf.has(n))
  if (missing.length > 0) {
    const known = [...indexOf.keys()]
    throw new EngineError(
      'bad-input',
      `Run ${runId} has no ${fromWorkbook ? 'sheet row' : 'submitted row'} ${missing.join(', ')} (its rows are ${Math.min(...known)} to ${Math.max(...known)}).`,
      `Name rows of that run by their ${fromWorkbook ? 'spreadsheet row numbers' : 'position in the submission'}.`,
    )
  }
  if (numbers.length === 0)
    throw new EngineError('bad-input', 'No rows were named to redo.', 'Name at least one row.')
  return [...new Set(numbers.map((n) => indexOf.get(n)!))].sort((a, b) => a - b)
}

/** This redo's fingerprint: the rows' own, then the redo's place among the run's redos. */
function redoFingerprint(base: string, runId: string, earlierRedos: string[]): string {
  return createHash('sha256')
    .update(JSON.stringify([base, 'redo', runId, earlierRedos]))
    .digest('hex')
}

export async function planRedo(
  services: RedoServices,
  connection: Connection,
  runId: string,
  rowNumbers: number[],
  signal?: AbortSignal,
): Promise<Plan> {
  const original = submissionOfRun(services, connection, runId)
  const indexes = redoIndexes(original, runId, rowNumbers)
  const detail = await connection.client.run(runId, { signal })
  services.history.recordRuns(connection.historyKey, [detail.run])
  const earlierRedos = services.history.retriedBy(connection.historyKey, runId)
  return rowsAgainPlan(
    services,
    connection,
    { runId, original, detail, indexes },
    (costs) => {
      const fingerprint = redoFingerprint(costs.fingerprint, runId, earlierRedos)
      return {
        redo: true,
        batch: batchLinkOfRun(services, connection, runId, 'redo'),
        fingerprint,
        duplicateOf: services.submissions.acceptedLike(connection.historyKey, fingerprint),
        unansweredOf: services.submissions.unansweredLike(connection.historyKey, fingerprint),
      }
    },
    signal,
  )
}
