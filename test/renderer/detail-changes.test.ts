// A big run's detail as the window rebuilds it from the engine's pushes (runDetailChanged):
// changes land on the tasks they name, untouched tasks stay the same objects (rows drawn from
// them need not be drawn again), and a missed push asks for the whole detail once.
import { describe, expect, it } from 'vitest'
import { DetailChanges } from '../../src/core/flows/watch/run-watcher-changes'
import type { RunDetailChange } from '../../src/shared/bridge'
import type { RunDetail, RunTask } from '../../src/shared/contract'
import {
  endedWithChanges,
  followChange,
  newChangeChain,
} from '../../src/renderer/stores/run-detail/detail-changes'
import { runArtifact, runSummary } from '../helpers/run-fixtures'

const task = (i: number, status = 'queued'): RunTask => ({
  taskId: `task-${i}`,
  status,
  sourceRowIndex: i,
  artifactCount: status === 'succeeded' ? 1 : 0,
  errorMessage: status === 'failed' ? `Row ${i} failed.` : '',
})
/** A run of `size` rows of which the first `done` succeeded, and row 3 failed once `done` > 3. */
function detailAt(size: number, done: number, updatedAtUnix = 10 + done): RunDetail {
  const tasks = Array.from({ length: size }, (_, i) =>
    task(i, i >= done ? 'queued' : i === 3 ? 'failed' : 'succeeded'),
  )
  const artifacts = tasks
    .filter((t) => t.status === 'succeeded')
    .map((t) => runArtifact(t.sourceRowIndex))
  return {
    run: runSummary({ totalTasks: size, completedTasks: done, updatedAtUnix }),
    market: undefined,
    tasks,
    artifacts,
  }
}
const pushed = (change: Omit<RunDetailChange, 'environment'>): RunDetailChange => ({
  environment: 'Sandbox',
  ...change,
})

/** The engine's changes and the window's chain, once the whole detail of `size` rows is shown. */
function watching(size: number) {
  const engine = new DetailChanges()
  const chain = newChangeChain()
  const whole = followChange(chain, detailAt(size, 0), pushed(engine.next(detailAt(size, 0))))
  if (!whole || whole === 'missed') throw new Error('the whole detail was not applied')
  return { engine, chain, whole }
}
/** The 3-row run of `watching(3)`, ended with every row done. */
const ended = (): RunDetail => ({
  ...detailAt(3, 3),
  run: runSummary({ status: 'succeeded', updatedAtUnix: 20 }),
})

describe('followChange', () => {
  it('rebuilds each detail the engine saw from its whole detail and the changes after it', () => {
    const engine = new DetailChanges()
    const chain = newChangeChain()
    let shown: RunDetail = detailAt(50, 0, 1)
    for (const done of [0, 2, 7, 7, 20, 50]) {
      const next = followChange(chain, shown, pushed(engine.next(detailAt(50, done))))
      if (next === null || next === 'missed') throw new Error(`push ${done} was not applied`)
      shown = next
      expect(shown).toEqual(detailAt(50, done))
    }
  })

  it('replaces only the tasks a change names, and keeps the others as they were', () => {
    const { engine, chain, whole } = watching(6)
    const change = engine.next(detailAt(6, 2))
    expect(change.tasks.map((t) => t.taskId)).toEqual(['task-0', 'task-1'])
    const next = followChange(chain, whole, pushed(change))
    if (!next || next === 'missed') throw new Error('the change was not applied')
    expect(next.tasks).not.toBe(whole.tasks)
    expect(next.tasks[0]).toEqual(task(0, 'succeeded'))
    for (const i of [2, 3, 4, 5]) expect(next.tasks[i]).toBe(whole.tasks[i])
    expect(next.artifacts.map((a) => a.artifactId)).toEqual(['a-0', 'a-1'])
  })

  it('keeps the newer run summary when a read brought one newer than the push', () => {
    const { engine, chain, whole } = watching(4)
    const read = { ...whole, run: runSummary({ completedTasks: 3, updatedAtUnix: 99 }) }
    const next = followChange(chain, read, pushed(engine.next(detailAt(4, 1))))
    if (!next || next === 'missed') throw new Error('the change was not applied')
    expect(next.run.updatedAtUnix).toBe(99)
    expect(next.tasks[0]!.status).toBe('succeeded')
  })

  it('keeps what the window read when the whole detail comes after it, redrawing only what moved', () => {
    const read = detailAt(6, 2)
    const same = followChange(
      newChangeChain(),
      read,
      pushed(new DetailChanges().next(detailAt(6, 2))),
    )
    if (!same || same === 'missed') throw new Error('the whole detail was not applied')
    expect(same.tasks).toBe(read.tasks)
    expect(same.artifacts).toBe(read.artifacts)
    const moved = followChange(
      newChangeChain(),
      read,
      pushed(new DetailChanges().next(detailAt(6, 4))),
    )
    if (!moved || moved === 'missed') throw new Error('the whole detail was not applied')
    expect(moved.tasks).toEqual(detailAt(6, 4).tasks)
    expect(moved.tasks[2]).not.toBe(read.tasks[2])
    for (const i of [0, 1, 4, 5]) expect(moved.tasks[i]).toBe(read.tasks[i])
    expect(moved.artifacts.slice(0, 2)).toEqual(read.artifacts)
    expect(moved.artifacts[0]).toBe(read.artifacts[0])
    expect(moved.artifacts).toHaveLength(3)
  })

  it('asks once for the whole detail when a push went missing, and goes on from the next whole', () => {
    const { engine, chain, whole } = watching(8)
    engine.next(detailAt(8, 1)) // lost on the way
    expect(followChange(chain, whole, pushed(engine.next(detailAt(8, 2))))).toBe('missed')
    // Asked already: later changes wait for the whole detail instead of asking again.
    expect(followChange(chain, whole, pushed(engine.next(detailAt(8, 3))))).toBeNull()
    engine.restart()
    const again = followChange(chain, whole, pushed(engine.next(detailAt(8, 5))))
    expect(again).toEqual(detailAt(8, 5))
    const after = followChange(chain, again as RunDetail, pushed(engine.next(detailAt(8, 8))))
    expect(after).toEqual(detailAt(8, 8))
  })

  it('asks for the whole detail when changes arrive before any whole one', () => {
    const engine = new DetailChanges()
    engine.next(detailAt(5, 0))
    const chain = newChangeChain()
    expect(followChange(chain, detailAt(5, 0), pushed(engine.next(detailAt(5, 1))))).toBe('missed')
  })

  it('asks for the whole detail when the counts do not add up', () => {
    const { engine, chain, whole } = watching(5)
    const change = { ...engine.next(detailAt(5, 1)), taskCount: 6 }
    expect(followChange(chain, whole, pushed(change))).toBe('missed')
  })
})

describe('endedWithChanges', () => {
  it('says the detail is final only once the change that ended the run was applied', () => {
    const { engine, chain, whole } = watching(3)
    expect(endedWithChanges(chain)).toBe(false)
    const shown = followChange(chain, whole, pushed(engine.next(ended()))) as RunDetail
    expect(shown.run.status).toBe('succeeded')
    expect(endedWithChanges(chain)).toBe(true)
  })

  it('is not sure after a missed push', () => {
    const { engine, chain, whole } = watching(3)
    engine.next(detailAt(3, 1))
    expect(followChange(chain, whole, pushed(engine.next(ended())))).toBe('missed')
    expect(endedWithChanges(chain)).toBe(false)
  })
})
