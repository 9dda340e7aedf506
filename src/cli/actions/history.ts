/** `history`: the submissions made from this computer, with their runs' latest status and cost. */
import { refreshUnfinished } from '../../core/flows/history/refresh-unfinished'
import { listHistory } from '../../core/flows/history/history-view'
import type { Submission } from '../../core/flows/spend/submissions'
import type { HistoryEntryView } from '../../shared/bridge'
import { formatAmount, runOutcome, statusLabel } from '../../shared/format'
import { integerOption, stringOption, type ParsedArgs, type CommandContext } from '../command'
import { table } from '../output'
import { localTime } from '../time'

export async function history(ctx: CommandContext, args: ParsedArgs) {
  const engine = await ctx.engine()
  const limit = integerOption(stringOption(args, 'limit'), '--limit', 1, 100_000) ?? 200
  // Runs still under way are looked at again first (when the service answers).
  const connection = await ctx.connect().catch(() => null)
  // A run whose answer never arrived (the process was killed) is found again on the service.
  if (connection) await engine.submissions.findLostRuns(connection, ctx.signal)
  if (connection) await refreshUnfinished(engine.history, connection, 20, ctx.signal)
  const page = listHistory(
    engine.history,
    engine.submissions,
    (name) => engine.environments.find(name)?.unitLabel ?? 'credits',
    { search: stringOption(args, 'search'), limit },
  )
  const entries = engine.submissions.search({ search: stringOption(args, 'search'), limit })
  const byId = new Map(entries.map((s) => [s.id, s]))
  const items = page.items.map((view) => historyItemJson(view, byId.get(view.id)))
  ctx.out.result({ items }, () =>
    items.length === 0
      ? 'No submissions from this computer yet.'
      : table(
          ['WHEN', 'FILE', 'TARGET', 'ROWS', 'STATE', 'RUN', 'STATUS', 'COST'],
          page.items.map((v) => [
            localTime(Math.floor(v.createdAtMs / 1000)),
            v.inputFilename || '-',
            v.target,
            String(v.rows),
            v.state,
            [
              v.runId || '-',
              v.batchOfRunId ? `(rest of pilot ${v.batchOfRunId})` : '',
              v.followUpOfRunId ? `(follow-up of ${v.followUpOfRunId})` : '',
            ]
              .filter(Boolean)
              .join(' '),
            v.runStatus
              ? v.runCounts
                ? runOutcome({ status: v.runStatus, ...v.runCounts }).label
                : statusLabel(v.runStatus)
              : '-',
            v.runId
              ? `${v.costIsEstimate ? 'about ' : ''}${formatAmount(v.costT, v.unitLabel)}`
              : '-',
          ]),
        ),
  )
}

/** One entry as `--json` prints it: the history's view plus what the journal kept of the sending. */
function historyItemJson(view: HistoryEntryView, s: Submission | undefined) {
  return {
    id: view.id,
    environment: view.environment,
    target:
      view.targetKind === 'listing'
        ? { listingId: view.target, listingVersionId: s?.listingVersionId ?? '' }
        : { templateId: view.target },
    inputFilename: view.inputFilename,
    rowCount: view.rows,
    state: view.state,
    runId: view.runId,
    runStatus: view.runStatus,
    clientRequestId: s?.clientRequestId ?? '',
    estimatedCostT: s?.estimatedCostT ?? null,
    costT: view.costT,
    costIsEstimate: view.costIsEstimate,
    retryOfRunId: view.retryOfRunId,
    followUpOfRunId: view.followUpOfRunId ?? '',
    batchOfRunId: view.batchOfRunId ?? '',
    batchRests: view.batchRests ?? [],
    batchId: view.batchId ?? '',
    sendKind: view.sendKind ?? '',
    callbackUrl: view.callbackUrl ?? '',
    error: view.error,
    createdAt: new Date(view.createdAtMs).toISOString(),
  }
}
