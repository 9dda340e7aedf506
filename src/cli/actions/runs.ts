/** `runs list` and `runs show`. */
import {
  isTerminalStatus,
  type Artifact,
  type RunDetail,
  type RunSummary,
  type RunTask,
} from '../../shared/contract'
import {
  formatAmount,
  rowColumnHeader,
  rowNumberOf,
  runOutcome,
  runProgressText,
  statusLabel,
  type RowNumbering,
  type RunCounters,
} from '../../shared/format'
import type { Connection } from '../../core/environments/connection'
import type { Engine } from '../../core/engine'
import { rowNumberingOf } from '../../core/flows/spend/submissions'
import { readStoredRun } from '../../core/flows/watch/stored-detail'
import { integerOption, stringOption, type ParsedArgs, type CommandContext } from '../command'
import { table } from '../output'
import type { Style } from '../style'
import { localTime } from '../time'

export async function runsList(ctx: CommandContext, args: ParsedArgs) {
  const limit = integerOption(stringOption(args, 'limit'), '--limit', 1, 1_000_000) ?? 50
  const { engine, connection } = await ctx.session()
  const result = await connection.client.listAllRuns(
    { status: stringOption(args, 'status'), limit },
    { signal: ctx.signal },
  )
  // The history follows its runs to their end state and cost.
  engine.recordRuns(connection.historyKey, result.items)
  ctx.out.result(result, () =>
    result.items.length === 0
      ? 'No runs yet.'
      : `${table(
          ['RUN', 'STATUS', 'PROGRESS', 'NAME', 'CREATED'],
          result.items.map((r: RunSummary) => [
            r.runId,
            runOutcome(r).label,
            runProgressText(r),
            r.displayName || r.templateName,
            localTime(r.createdAtUnix),
          ]),
          (cell, row, column) =>
            row >= 0 && column === 1 ? outcomeColor(ctx.out.style, result.items[row]!, cell) : cell,
        )}\n${result.items.length} of ${result.totalCount} runs`,
  )
}

/** A run of more tasks or outputs than this is shown from the history, a page at a time. */
const SHOWN_WHOLE_UP_TO = 5000

/**
 * A run's detail, read into the history as it arrives. A big run's is written from there a page
 * at a time with --json (the same document), and its rows alone are read back for the text.
 */
export async function runsShow(ctx: CommandContext, args: ParsedArgs) {
  const { engine, connection } = await ctx.session()
  const { historyKey } = connection
  const runId = args.positionals[0]!
  const where = { historyKey, runId, keepUpTo: SHOWN_WHOLE_UP_TO }
  const read = await readStoredRun(connection.client, engine.runRows, where, {
    signal: ctx.signal,
  })
  engine.recordRuns(historyKey, [read.head.run])
  const describe = (detail: RunDetail) => () =>
    describeRun(detail, connection.unitLabel, numberingOf(engine, connection, detail))
  if (read.detail) return ctx.out.result(read.detail, describe(read.detail))
  if (ctx.out.json) {
    const pages = {
      tasks: engine.runRows.taskPages(historyKey, runId),
      artifacts: engine.runRows.outputPages(historyKey, runId),
    }
    return ctx.out.resultParts(detailJson(read.head, pages))
  }
  const tasks = [...engine.runRows.taskPages(historyKey, runId)].flat()
  const detail = { ...read.head, tasks, artifacts: [] }
  ctx.out.result(null, describe(detail))
}

/** A run's detail as JSON.stringify(detail, null, 2) writes it, its lists a page at a time. */
export function* detailJson(
  head: Pick<RunDetail, 'run' | 'market'>,
  pages: { tasks: Iterable<RunTask[]>; artifacts: Iterable<Artifact[]> },
): Generator<string> {
  const nested = (value: unknown, depth: number) =>
    JSON.stringify(value, null, 2).replace(/\n/g, `\n${'  '.repeat(depth)}`)
  yield `{\n  "run": ${nested(head.run, 1)}`
  if (head.market !== undefined) yield `,\n  "market": ${nested(head.market, 1)}`
  for (const key of ['tasks', 'artifacts'] as const) {
    yield `,\n  "${key}": [`
    let first = true
    for (const page of pages[key])
      for (const item of page) {
        yield `${first ? '' : ','}\n    ${nested(item, 2)}`
        first = false
      }
    yield first ? ']' : '\n  ]'
  }
  yield '\n}\n'
}

/** How this device names the rows of a run (spreadsheet rows when it sent them from a workbook). */
export function numberingOf(
  engine: Pick<Engine, 'submissions'>,
  connection: Connection,
  detail: RunDetail,
): RowNumbering | null {
  return rowNumberingOf(engine.submissions.sheetOfRun(connection.historyKey, detail.run.runId))
}

export function describeRun(
  detail: RunDetail,
  unitLabel: string,
  numbering: RowNumbering | null = null,
): string {
  const r = detail.run
  const ended = isTerminalStatus(r.status)
  const lines = [
    `${r.displayName || r.templateName || r.runId} (${r.runId})`,
    // A run that ended with failed rows says so in its status, counts included.
    runOutcome(r).partial
      ? `status: ${runOutcome(r).label}`
      : `status: ${statusLabel(r.status)}, ${runProgressText(r)}`,
    // Once ended, what it actually cost (0 is a real amount); before, the estimate, said so.
    ended
      ? `cost: ${formatAmount(r.actualCostT, unitLabel)}`
      : `cost: about ${formatAmount(r.estimatedCostT, unitLabel)} (estimate; ${formatAmount(r.actualCostT, unitLabel)} so far)`,
  ]
  if (r.firstErrorMessage) lines.push(`first error: ${r.firstErrorMessage}`)
  const market = detail.market
  if (market?.runTransactionId) {
    const payable = ended
      ? formatAmount(market.finalBuyerPayableT, unitLabel)
      : `about ${formatAmount(market.estimatedBuyerPayableT, unitLabel)}`
    lines.push(
      `market: ${market.skillName} (${market.listingId}), transaction ${market.transactionStatus}, payable ${payable}`,
    )
  }
  lines.push(
    '',
    table(
      [rowColumnHeader(numbering).toUpperCase(), 'TASK', 'STATUS', 'ARTIFACTS', 'ERROR'],
      detail.tasks.map((t) => [
        String(rowNumberOf(numbering, t.sourceRowIndex)),
        t.taskId,
        statusLabel(t.status),
        String(t.artifactCount),
        t.errorMessage,
      ]),
    ),
  )
  return lines.join('\n')
}

/** A status word in its colour: green done, red failed, yellow under way, as is otherwise. */
function statusColor(style: Style, status: string, text = status): string {
  if (status === 'succeeded' || status === 'published' || status === 'settled')
    return style.green(text)
  if (status === 'failed' || status === 'rejected' || status === 'cancelled') return style.red(text)
  if (
    status === 'queued' ||
    status === 'running' ||
    status === 'pending' ||
    status === 'pending_review'
  )
    return style.yellow(text)
  return text
}

/** A run's outcome in its colour: yellow when it finished with failed rows, else as its status. */
function outcomeColor(style: Style, run: RunCounters, text: string): string {
  return runOutcome(run).partial ? style.yellow(text) : statusColor(style, run.status, text)
}
