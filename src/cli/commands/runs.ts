/** `runs list` and `runs show`. */
import type { RunDetail, RunSummary } from '../../shared/contract'
import { runProgressText, statusLabel } from '../../shared/format'
import { stringOption, type Command } from '../command'
import { table } from '../output'
import { integerOption } from './system'
import { isoOf } from './templates'

export const runsList: Command = {
  name: 'runs list',
  summary: 'List your runs, newest first (follows page tokens up to --limit, default 50).',
  usage: 'runs list [--status S] [--limit N]',
  options: { status: { type: 'string' }, limit: { type: 'string' } },
  async run(ctx, args) {
    const limit = integerOption(stringOption(args, 'limit'), '--limit', 1, 1_000_000) ?? 50
    const connection = await ctx.connect()
    const result = await connection.client.listAllRuns(
      { status: stringOption(args, 'status'), limit },
      { signal: ctx.signal },
    )
    ctx.out.result(result, () =>
      result.items.length === 0
        ? 'No runs yet.'
        : `${table(
            ['RUN', 'STATUS', 'PROGRESS', 'NAME', 'CREATED'],
            result.items.map((r: RunSummary) => [
              r.runId,
              statusLabel(r.status),
              runProgressText(r),
              r.displayName || r.templateName,
              isoOf(r.createdAtUnix),
            ]),
          )}\n${result.items.length} of ${result.totalCount} runs`,
    )
  },
}

export const runsShow: Command = {
  name: 'runs show',
  summary: 'Show one run: its status, tasks, errors per row, cost and artifacts.',
  usage: 'runs show RUN',
  positionals: { min: 1, max: 1, names: 'a RUN id' },
  async run(ctx, args) {
    const connection = await ctx.connect()
    const detail = await connection.client.run(args.positionals[0]!, { signal: ctx.signal })
    ctx.out.result(detail, () => describeRun(detail, connection.unitLabel))
  },
}

export function describeRun(detail: RunDetail, unitLabel: string): string {
  const r = detail.run
  const cost = r.actualCostT || r.estimatedCostT
  const lines = [
    `${r.displayName || r.templateName || r.runId} (${r.runId})`,
    `status: ${statusLabel(r.status)}, ${runProgressText(r)}`,
    `cost: ${cost} ${unitLabel}${r.actualCostT ? '' : ' (estimate)'}`,
  ]
  if (r.firstErrorMessage) lines.push(`first error: ${r.firstErrorMessage}`)
  const market = detail.market
  if (market?.runTransactionId) {
    lines.push(
      `market: ${market.skillName} (${market.listingId}), transaction ${market.transactionStatus}, payable ${market.finalBuyerPayableT || market.estimatedBuyerPayableT} ${unitLabel}`,
    )
  }
  lines.push(
    '',
    table(
      ['ROW', 'TASK', 'STATUS', 'ARTIFACTS', 'ERROR'],
      detail.tasks.map((t) => [
        String(t.sourceRowIndex + 1),
        t.taskId,
        statusLabel(t.status),
        String(t.artifactCount),
        t.errorMessage,
      ]),
    ),
  )
  return lines.join('\n')
}
