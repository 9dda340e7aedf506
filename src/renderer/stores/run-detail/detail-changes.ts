/**
 * A big followed run's detail as the engine pushes it (runDetailChanged): whole once, then what
 * changed. Applying a change copies the task list once and touches only the tasks it names, so
 * a push of a few hundred rows of a 20,000-row run stays a small piece of work for the window.
 */
import type { RunDetailChange } from '../../../shared/bridge'
import type { Artifact, RunDetail, RunSummary, RunTask } from '../../../shared/contract'
import { isTerminalStatus } from '../../../shared/contract/statuses'

/** Where each task and output of the detail shown sits, kept so a change need not look for them. */
interface DetailIndex {
  tasks: readonly RunTask[]
  taskAt: Map<string, number>
  artifacts: readonly Artifact[]
  artifactIds: Set<string>
}

/** The pushes applied so far to the open run's detail. */
export interface ChangeChain {
  /** The last push applied; null until a whole one came (after opening or a missed push). */
  seq: number | null
  index: DetailIndex | null
  /** The whole detail was asked for again and has not come yet. */
  asked: boolean
  /** The run's status in the last push applied. */
  status: string
}

export const newChangeChain = (): ChangeChain => ({
  seq: null,
  index: null,
  asked: false,
  status: '',
})

/** Changes cannot be placed: ask for the whole detail, once until it comes. */
function missed(chain: ChangeChain): 'missed' | null {
  chain.seq = null
  if (chain.asked) return null
  chain.asked = true
  return 'missed'
}

function indexOf(detail: RunDetail, known: DetailIndex | null): DetailIndex {
  if (known && known.tasks === detail.tasks && known.artifacts === detail.artifacts) return known
  return {
    tasks: detail.tasks,
    taskAt: new Map(detail.tasks.map((task, i) => [task.taskId, i])),
    artifacts: detail.artifacts,
    artifactIds: new Set(detail.artifacts.map((a) => a.artifactId)),
  }
}

/** The newer of two summaries of a run (a read may have brought a newer one than a push). */
const newer = (a: RunSummary, b: RunSummary) => (b.updatedAtUnix > a.updatedAtUnix ? b : a)

/** The detail with a change applied onto it: tasks replaced or added by id, new outputs added. */
function withChange(detail: RunDetail, change: RunDetailChange, chain: ChangeChain): RunDetail {
  const index = indexOf(detail, chain.index)
  let tasks = detail.tasks
  if (change.tasks.length > 0) {
    tasks = detail.tasks.slice()
    for (const task of change.tasks) {
      const at = index.taskAt.get(task.taskId)
      if (at === undefined) {
        index.taskAt.set(task.taskId, tasks.length)
        tasks.push(task)
      } else tasks[at] = task
    }
  }
  let artifacts = detail.artifacts
  const added = change.artifacts.filter((a) => !index.artifactIds.has(a.artifactId))
  if (added.length > 0) {
    artifacts = detail.artifacts.concat(added)
    for (const a of added) index.artifactIds.add(a.artifactId)
  }
  index.tasks = tasks
  index.artifacts = artifacts
  chain.index = index
  return {
    run: newer(change.run, detail.run),
    market: change.market ?? detail.market,
    tasks,
    artifacts,
  }
}

const sameTask = (a: RunTask, b: RunTask) =>
  a.status === b.status &&
  a.artifactCount === b.artifactCount &&
  a.sourceRowIndex === b.sourceRowIndex &&
  a.errorMessage === b.errorMessage

/**
 * `next` with each item `shown` already holds (by `key`, and `same`) as the object shown, and
 * `shown` itself when nothing differs.
 */
function keepShown<T>(
  shown: T[],
  next: T[],
  key: (item: T) => string,
  same: (a: T, b: T) => boolean,
): T[] {
  const byKey = new Map(shown.map((item) => [key(item), item]))
  let changed = shown.length !== next.length
  const out = next.map((item, i) => {
    const old = byKey.get(key(item))
    if (old === undefined || !same(old, item)) {
      changed = true
      return item
    }
    if (shown[i] !== old) changed = true
    return old
  })
  return changed ? out : shown
}

/**
 * The tasks and outputs of a whole push, keeping those of the same run the window shows. A whole
 * push comes right after the window read the detail (it starts following then): a trace of a run
 * of 10,000 rows showed it (1.2 MB) redrawing every row and output as new, the longest task of
 * the page while the run moved. Kept, only the rows that moved since the read are drawn again,
 * and an output never changes once made (its address may be signed anew, which the window never
 * uses).
 */
function kept(detail: RunDetail, change: RunDetailChange): Pick<RunDetail, 'tasks' | 'artifacts'> {
  if (detail.run.runId !== change.runId) return { tasks: change.tasks, artifacts: change.artifacts }
  return {
    tasks: keepShown(detail.tasks, change.tasks, (t) => t.taskId, sameTask),
    artifacts: keepShown(
      detail.artifacts,
      change.artifacts,
      (a) => a.artifactId,
      () => true,
    ),
  }
}

/**
 * Applies a push to the detail shown: the new detail; 'missed' when a push before it never
 * arrived, or none whole did yet (the whole detail must be asked for again); null when there is
 * nothing to do (the whole detail was asked for and is on its way).
 */
export function followChange(
  chain: ChangeChain,
  detail: RunDetail,
  change: RunDetailChange,
): RunDetail | 'missed' | null {
  if (change.after === null) {
    chain.seq = change.seq
    chain.index = null
    chain.asked = false
    chain.status = change.run.status
    return { run: newer(change.run, detail.run), market: change.market, ...kept(detail, change) }
  }
  if (change.after !== chain.seq) return missed(chain)
  chain.seq = change.seq
  chain.status = change.run.status
  const next = withChange(detail, change, chain)
  // A count that does not add up means a push was lost on the way: start again from a whole one.
  if (next.tasks.length !== change.taskCount || next.artifacts.length !== change.artifactCount)
    return missed(chain)
  return next
}

/**
 * The detail shown is whole and final: every change up to the run's end was applied (the engine
 * pushes a run's last change before saying it ended), so reading it again would bring nothing.
 */
export function endedWithChanges(chain: ChangeChain): boolean {
  return chain.seq !== null && isTerminalStatus(chain.status)
}
