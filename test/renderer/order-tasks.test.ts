// The run's rows as the Rows table lists them: failed first, then in row order, whatever order
// the service sent them in.
import { expect, it } from 'vitest'
import { orderTasks } from '../../src/renderer/runs/run-view'
import type { RunTask } from '../../src/shared/contract'
import { runTask } from '../helpers/run-fixtures'

const rows = (tasks: RunTask[]) => tasks.map((t) => `${t.sourceRowIndex}:${t.status}`)

it('lists failed rows first, then the others, each in row order', () => {
  const inOrder = [
    runTask(0, 'succeeded'),
    runTask(1, 'failed'),
    runTask(2, 'running'),
    runTask(3, 'failed'),
  ]
  expect(rows(orderTasks(inOrder, false))).toEqual([
    '1:failed',
    '3:failed',
    '0:succeeded',
    '2:running',
  ])
  const shuffled = [
    runTask(3, 'failed'),
    runTask(2, 'running'),
    runTask(0, 'succeeded'),
    runTask(1, 'failed'),
  ]
  expect(rows(orderTasks(shuffled, false))).toEqual(rows(orderTasks(inOrder, false)))
  expect(rows(orderTasks(shuffled, true))).toEqual(['1:failed', '3:failed'])
  // The list it was given is left as it was.
  expect(rows(shuffled)).toEqual(['3:failed', '2:running', '0:succeeded', '1:failed'])
})
