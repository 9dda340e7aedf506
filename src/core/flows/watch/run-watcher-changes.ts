/**
 * What changed in a followed run's detail since the last one sent on: the tasks new or changed
 * (by taskId) and the outputs new (by artifactId). A big run's detail is megabytes; sending it
 * whole at every change makes the window parse and redraw all of it, while a few hundred rows
 * moved. Only a fingerprint of each task and the ids of the outputs are kept, never the detail
 * itself, so following a big run holds its tasks once (the detail just fetched), not twice.
 */
import type { RunDetailChange } from '../../../shared/bridge'
import type { Artifact, RunDetail, RunTask } from '../../../shared/contract'

/** One push of a run's detail, as the Bridge sends it (less the environment it belongs to). */
export type DetailChange = Omit<RunDetailChange, 'environment'>

/** What a window sees of a task; a change in any of it is a change of the task. */
function fingerprint(task: RunTask): string {
  return `${task.status}\u0000${task.artifactCount}\u0000${task.sourceRowIndex}\u0000${task.errorMessage}`
}

/** The pushes of one run's detail, numbered, each what changed since the one before. */
export class DetailChanges {
  private seq = 0
  private whole = true
  private readonly tasks = new Map<string, string>()
  private readonly artifacts = new Set<string>()

  /** The next push is the whole detail (a window starts following, or one missed a push). */
  restart() {
    this.whole = true
  }

  /** The push for this detail, remembered as what the windows now hold. */
  next(detail: RunDetail): DetailChange {
    // A task or output gone (never expected) cannot be said as a change: send it all.
    const shrank =
      detail.tasks.length < this.tasks.size || detail.artifacts.length < this.artifacts.size
    const whole = this.whole || shrank
    if (whole) {
      this.tasks.clear()
      this.artifacts.clear()
    }
    const tasks: RunTask[] = []
    for (const task of detail.tasks) {
      const now = fingerprint(task)
      if (this.tasks.get(task.taskId) === now) continue
      this.tasks.set(task.taskId, now)
      tasks.push(task)
    }
    const artifacts: Artifact[] = []
    for (const artifact of detail.artifacts) {
      if (this.artifacts.has(artifact.artifactId)) continue
      this.artifacts.add(artifact.artifactId)
      artifacts.push(artifact)
    }
    const after = whole ? null : this.seq
    this.seq += 1
    this.whole = false
    return {
      runId: detail.run.runId,
      seq: this.seq,
      after,
      run: detail.run,
      ...(detail.market ? { market: detail.market } : {}),
      tasks,
      artifacts,
      taskCount: detail.tasks.length,
      artifactCount: detail.artifacts.length,
    }
  }
}
