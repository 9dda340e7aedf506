/**
 * A run and its follow-ups (its set-aside rows, fixed and sent later) read as one group in the
 * history: each follow-up whose run is listed too sits right under it, in the order they were
 * sent, and the group stands where its newest member would have stood in the newest-first list.
 * Pure: the history's entries in, the same entries reordered out.
 */
import type { HistoryEntryView } from '../../../shared/bridge'

const runKey = (environment: string, runId: string) => `${environment}\n${runId}`

/** The entries, newest first, with every follow-up moved under the run it follows up. */
export function withFollowUpsTogether(items: HistoryEntryView[]): HistoryEntryView[] {
  const byRun = new Map<string, HistoryEntryView>()
  for (const item of items) if (item.runId) byRun.set(runKey(item.environment, item.runId), item)
  /** The first run of an entry's chain of follow-ups that is listed (itself when none). */
  const rootOf = (item: HistoryEntryView): HistoryEntryView => {
    let at = item
    // A chain longer than the list would be a loop in a damaged journal: stop there.
    for (let step = 0; step < items.length && at.followUpOfRunId; step += 1) {
      const parent = byRun.get(runKey(at.environment, at.followUpOfRunId))
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
