/**
 * A run and its follow-ups (its set-aside rows, fixed and sent later) read as one group in the
 * history: each follow-up whose run is listed too sits right under it, in the order they were
 * sent, and the group stands where its newest member would have stood in the newest-first list.
 * The rest of a pilot's workbook joins its pilot the same way: the two are one batch, and a run
 * sent in between must not split them. Pure: the history's entries in, the same entries
 * reordered out.
 */
import type { HistoryEntryView } from '../../../shared/bridge'

const runKey = (environment: string, runId: string) => `${environment}\n${runId}`

/** The run an entry belongs under: the run it follows up, or the pilot it is the rest of. */
const parentRunOf = (item: HistoryEntryView) => item.followUpOfRunId || item.batchOfRunId || ''

/** The entries, newest first, with every follow-up (and rest of a pilot) moved under its run. */
export function withFollowUpsTogether(items: HistoryEntryView[]): HistoryEntryView[] {
  const byRun = new Map<string, HistoryEntryView>()
  for (const item of items) if (item.runId) byRun.set(runKey(item.environment, item.runId), item)
  /** The first run of an entry's chain of follow-ups that is listed (itself when none). */
  const rootOf = (item: HistoryEntryView): HistoryEntryView => {
    let at = item
    // A chain longer than the list would be a loop in a damaged journal: stop there.
    for (let step = 0; step < items.length && parentRunOf(at); step += 1) {
      const parent = byRun.get(runKey(at.environment, parentRunOf(at)))
      if (!parent) break
      at = parent
    }
    return at
  }
  const groups = new Map<HistoryEntryView, HistoryEntryView[]>()
  for (const item of items) {
    const root = rootOf(item)
    if (root !== item) groups.set(root, [...(groups.get(root) ?? []), item])
  }
  if (groups.size === 0) return items
  const placed = new Set<HistoryEntryView>()
  const ordered: HistoryEntryView[] = []
  for (const item of items) {
    if (placed.has(item)) continue
    const root = rootOf(item)
    // Oldest follow-up first under the run: the order they were sent in.
    const members = [root, ...(groups.get(root) ?? []).sort((a, b) => a.id - b.id)]
    for (const member of members) placed.add(member)
    ordered.push(...members)
  }
  return ordered
}
