/** Plain functions behind the run detail: row names, timing and cost, tested like any function. */
import type { RunOverview } from '../../shared/bridge'
import type { RunSummary, RunTask } from '../../shared/contract'
import { formatAmount, rowLabel, spreadsheetRows } from '../../shared/format'

/** How the run's page names a task's row: by its sheet row when the run's rows came from here. */
export function taskRowLabel(sourceRowIndex: number, rowNumbers: readonly number[] | null): string {
  return rowLabel(spreadsheetRows(rowNumbers ?? []), sourceRowIndex)
}

/** "4 min 12 s", "1 h 3 min", "0.8 s". */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '—'
  if (seconds < 1) return 'under a second'
  if (seconds < 10) return `${Math.round(seconds * 10) / 10} s`
  if (seconds < 60) return `${Math.round(seconds)} s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes} min ${Math.round(seconds - minutes * 60)} s`
  const hours = Math.floor(minutes / 60)
  return `${hours} h ${minutes - hours * 60} min`
}

/** How long the run took, or has taken so far. */
export function runDuration(run: RunSummary, nowMs: number): string {
  const start = run.startedAtUnix || run.createdAtUnix
  if (!start) return '—'
  const end = run.completedAtUnix || nowMs / 1000
  return formatDuration(end - start)
}

export interface CostLine {
  label: string
  value: string
}

/** The cost as the detail shows it: estimate and actual side by side, and the transaction. */
export function costLines(overview: RunOverview): CostLine[] {
  const { run } = overview.detail
  const market = overview.detail.market ?? run.market
  const unit = overview.unitLabel
  const ended = ['succeeded', 'failed', 'cancelled'].includes(run.status)
  const lines: CostLine[] = []
  if (market?.listingId) {
    lines.push({
      label: 'Estimate',
      value: formatAmount(market.estimatedBuyerPayableT || market.estimatedExecutionCostT, unit),
    })
    lines.push({
      label: ended ? 'Charged' : 'Charged so far',
      value: ended
        ? formatAmount(market.finalBuyerPayableT || market.actualExecutionCostT, unit)
        : 'known when the run ends',
    })
    if (market.taskFixedFeeT)
      lines.push({ label: 'Fee per row', value: formatAmount(market.taskFixedFeeT, unit) })
    if (market.transactionStatus)
      lines.push({ label: 'Payment', value: transactionLabel(market.transactionStatus) })
    return lines
  }
  lines.push({ label: 'Estimate', value: formatAmount(run.estimatedCostT, unit) })
  lines.push({
    label: ended ? 'Actual cost' : 'Cost so far',
    value: formatAmount(run.actualCostT, unit),
  })
  return lines
}

const TRANSACTIONS: Record<string, string> = {
  authorized: 'Reserved (settled when the run ends)',
  settled: 'Settled',
  released: 'Released (nothing charged)',
}

export function transactionLabel(status: string): string {
  return TRANSACTIONS[status] ?? status
}

/** Tasks in row order: as the service lists them (it keeps that order), else sorted. */
function inRowOrder(tasks: RunTask[]): RunTask[] {
  for (let i = 1; i < tasks.length; i += 1)
    if (tasks[i - 1]!.sourceRowIndex > tasks[i]!.sourceRowIndex)
      return tasks.sort((a, b) => a.sourceRowIndex - b.sourceRowIndex)
  return tasks
}

/**
 * Failed tasks first (they need attention), then in row order. Done again at each push of a big
 * run's changes, so it splits and checks the order in one pass instead of sorting 20,000 rows.
 */
export function orderTasks(tasks: RunTask[], onlyFailed: boolean): RunTask[] {
  const failed: RunTask[] = []
  const others: RunTask[] = []
  for (const task of tasks) (task.status === 'failed' ? failed : others).push(task)
  if (onlyFailed) return inRowOrder(failed)
  const first = inRowOrder(failed)
  return first.length === 0 ? inRowOrder(others) : first.concat(inRowOrder(others))
}

const KINDS: Record<string, string> = {
  'application/json': 'JSON',
  'text/plain': 'Text',
  'text/csv': 'CSV table',
  'text/markdown': 'Markdown text',
  'text/html': 'Web page',
  'application/pdf': 'PDF document',
  'image/png': 'PNG image',
  'image/jpeg': 'JPEG image',
  'image/gif': 'GIF image',
  'image/webp': 'WebP image',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel workbook',
}

/** A MIME type as people say it ("JSON", "PNG image"); others as the service sent them. */
export function kindLabel(mimeType: string): string {
  const type = mimeType.split(';')[0]!.trim().toLowerCase()
  const known = KINDS[type]
  if (known) return known
  // An unlisted type by its family, never raw: a buyer does not read "application/x-ndjson".
  if (type.endsWith('+json') || type.endsWith('/json')) return 'JSON'
  for (const [family, words] of FAMILIES) if (type.startsWith(family)) return words
  return 'File'
}

const FAMILIES: readonly [string, string][] = [
  ['text/', 'Text'],
  ['image/', 'Image'],
  ['audio/', 'Audio'],
  ['video/', 'Video'],
]

/** A run in words when it has no name: what it ran on, and when it started. */
export function runWords(run: {
  displayName?: string | undefined
  templateName?: string | undefined
  inputFilename?: string | undefined
  createdAtUnix?: number | undefined
}): string {
  if (run.displayName) return run.displayName
  const what = [run.templateName, run.inputFilename].filter(Boolean).join(' · ')
  const when = run.createdAtUnix
    ? new Date(run.createdAtUnix * 1000).toLocaleString('en-GB', {
        day: 'numeric',
        month: 'short',
        hour: '2-digit',
        minute: '2-digit',
      })
    : ''
  return [what || 'Run', when && `started ${when}`].filter(Boolean).join(', ')
}

/** The folder a file or folder is in, named as a file manager shows it ("Skill Runner"). */
export function parentFolderName(path: string): string {
  const parts = path.split(/[\\/]+/).filter(Boolean)
  return parts.at(-2) ?? path
}

/**
 * A run's saved outputs in words. Its folder on disk carries the run's id (the command line and
 * support find it from the id), so screens name the folder it is in and keep the full path
 * under Details.
 */
export function savedFolderWords(runFolder: string): string {
  return `In this run’s own folder, in “${parentFolderName(runFolder)}”`
}
