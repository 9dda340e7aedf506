// What the engine pushes of a big watched run's detail: whole once, then only the tasks that
// changed and the outputs that appeared, numbered so a window can tell it missed one.
import { describe, expect, it } from 'vitest'
import { DetailChanges } from '../../src/core/flows/watch/run-watcher-changes'
import type { Artifact, RunDetail, RunTask } from '../../src/shared/contract'
import { runArtifact, runSummary, runTask } from '../helpers/run-fixtures'

const task = (i: number, status = 'queued', over: Partial<RunTask> = {}): RunTask =>
  runTask(i, status, { artifactCount: status === 'succeeded' ? 1 : 0, ...over })
const detail = (tasks: RunTask[], artifacts: Artifact[] = [], updatedAtUnix = 10): RunDetail => ({
  run: runSummary({ totalTasks: tasks.length, updatedAtUnix }),
  market: undefined,
  tasks,
  artifacts,
})

describe('DetailChanges', () => {
  it('sends the whole detail first, then only what changed, numbered one after the other', () => {
    const changes = new DetailChanges()
    const first = changes.next(detail([task(0), task(1), task(2)]))
    expect(first).toMatchObject({ runId: 'run-1', seq: 1, after: null, taskCount: 3 })
    expect(first.tasks.map((t) => t.taskId)).toEqual(['task-0', 'task-1', 'task-2'])

    const second = changes.next(
      detail([task(0, 'succeeded'), task(1, 'running'), task(2)], [runArtifact(0)], 11),
    )
    expect(second).toMatchObject({ seq: 2, after: 1, taskCount: 3, artifactCount: 1 })
    expect(second.tasks).toEqual([task(0, 'succeeded'), task(1, 'running')])
    expect(second.artifacts).toEqual([runArtifact(0)])
    expect(second.run.updatedAtUnix).toBe(11)

    // Nothing moved: the push says so with no task and no output.
    const third = changes.next(
      detail([task(0, 'succeeded'), task(1, 'running'), task(2)], [runArtifact(0)], 11),
    )
    expect(third).toMatchObject({ seq: 3, after: 2, tasks: [], artifacts: [] })
  })

  it('sees an error message as a change, and an output signed anew as none', () => {
    const changes = new DetailChanges()
    changes.next(detail([task(0, 'succeeded')], [runArtifact(0)]))
    const next = changes.next(
      detail(
        [task(0, 'failed', { errorMessage: 'The reply was empty.' })],
        [runArtifact(0, 'https://files.example/a-0?expires=2')],
      ),
    )
    expect(next.tasks).toEqual([task(0, 'failed', { errorMessage: 'The reply was empty.' })])
    expect(next.artifacts).toEqual([])
  })

  it('sends the whole detail again after a restart, or when tasks went missing', () => {
    const changes = new DetailChanges()
    changes.next(detail([task(0), task(1)]))
    changes.restart()
    const again = changes.next(detail([task(0), task(1, 'running')]))
    expect(again).toMatchObject({ seq: 2, after: null })
    expect(again.tasks).toHaveLength(2)

    const fewer = changes.next(detail([task(0)]))
    expect(fewer).toMatchObject({ seq: 3, after: null, taskCount: 1 })
    expect(fewer.tasks).toEqual([task(0)])
  })

  it('a look fed part by part holds only what changed, and is read again whole when a window asks meanwhile', () => {
    const changes = new DetailChanges()
    changes.next(detail([task(0), task(1), task(2)]))
    const look = changes.look()
    for (const t of [task(0, 'succeeded'), task(1), task(2)]) look.task(t)
    look.artifact(runArtifact(0))
    expect(look.changedTasks).toEqual([task(0, 'succeeded')])
    expect(look.newArtifacts).toEqual([runArtifact(0)])
    // A new viewer came while the look was read: it cannot be pushed as a change.
    changes.restart()
    expect(look.finish(detail([]))).toBeNull()
    const again = changes.look()
    for (const t of [task(0, 'succeeded'), task(1), task(2)]) again.task(t)
    again.artifact(runArtifact(0))
    const whole = again.finish(detail([]))
    expect(whole).toMatchObject({ seq: 2, after: null, taskCount: 3, artifactCount: 1 })
    expect(whole!.tasks).toHaveLength(3)
  })
})
