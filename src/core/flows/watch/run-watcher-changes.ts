/**
 * What changed in a watched run's detail since the last one sent on: the tasks new or changed
 * (by taskId) and the outputs new (by artifactId). A big run's detail is megabytes; sending it
 * whole at every change makes the window parse and redraw all of it, while a few hundred rows
 * moved. Only a fingerprint of each task and the ids of the outputs are kept, never the detail
 * itself. A look is fed the detail task by task and output by output as it is read from the
 * service (`look()`), so only what changed is held, never the whole detail: a detail already
 * read whole goes through the same look (`next`).
 */
import type { RunDetailHead, RunDetailSink } from '../../service/run-detail-stream'
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
  private tasks = new Map<string, string>()
  private artifacts = new Set<string>()

  /** The next push is the whole detail (a window starts watching, or one missed a push). */
  restart() {
    this.whole = true
  }

  /**
   * A look at the detail, fed as it is read; its `finish` gives the push, or null when the detail
   * must be read again to be pushed whole: a window asked for it whole meanwhile, or a task or
   * output has gone since the last push (never expected; it cannot be said as a change).
   */
  look(): DetailLook {
    return new DetailLook(this.whole, this.tasks, this.artifacts, (look, head) =>
      this.push(look, head),
    )
  }

  /** The push for this detail, read whole already, remembered as what the windows now hold. */
  next(detail: RunDetail): DetailChange {
    for (;;) {
      const look = this.look()
      for (const task of detail.tasks) look.task(task)
      for (const artifact of detail.artifacts) look.artifact(artifact)
      const change = look.finish(detail)
      if (change) return change
    }
  }

  private push(look: DetailLook, head: RunDetailHead): DetailChange | null {
    // A window asked for the whole detail while this look was read; or a part has gone.
    const shrank = look.prints.size < this.tasks.size || look.ids.size < this.artifacts.size
    if (!look.whole && (this.whole || shrank)) {
      this.restart()
      return null
    }
    this.tasks = look.prints
    this.artifacts = look.ids
    const after = look.whole ? null : this.seq
    this.seq += 1
    this.whole = false
    return {
      runId: head.run.runId,
      seq: this.seq,
      after,
      run: head.run,
      ...(head.market ? { market: head.market } : {}),
      tasks: look.changedTasks,
      artifacts: look.newArtifacts,
      taskCount: look.taskCount,
      artifactCount: look.artifactCount,
    }
  }
}

/** One look at a run's detail: what changed, kept as the detail's parts come. */
export class DetailLook implements RunDetailSink {
  readonly prints = new Map<string, string>()
  readonly ids = new Set<string>()
  readonly changedTasks: RunTask[] = []
  readonly newArtifacts: Artifact[] = []
  taskCount = 0
  artifactCount = 0

  constructor(
    readonly whole: boolean,
    private readonly knownTasks: ReadonlyMap<string, string>,
    private readonly knownArtifacts: ReadonlySet<string>,
    private readonly done: (look: DetailLook, head: RunDetailHead) => DetailChange | null,
  ) {}

  task(task: RunTask): void {
    this.taskCount += 1
    const now = fingerprint(task)
    const before = this.prints.has(task.taskId)
      ? this.prints.get(task.taskId)
      : this.whole
        ? undefined
        : this.knownTasks.get(task.taskId)
    this.prints.set(task.taskId, now)
    if (before !== now) this.changedTasks.push(task)
  }

  artifact(artifact: Artifact): void {
    this.artifactCount += 1
    const known =
      this.ids.has(artifact.artifactId) ||
      (!this.whole && this.knownArtifacts.has(artifact.artifactId))
    this.ids.add(artifact.artifactId)
    if (!known) this.newArtifacts.push(artifact)
  }

  /** The push this look makes, or null when it must be read again (see DetailChanges.look). */
  finish(head: RunDetailHead): DetailChange | null {
    return this.done(this, head)
  }
}
