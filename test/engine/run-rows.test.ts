// A run's rows in the history: 20,000 tasks and their outputs stored as a detail's parts come,
// changed by a later look (only what moved is written), and read back in windows and pages.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, expect, it } from 'vitest'
import type { Artifact, RunTask } from '../../src/shared/contract'
import { StoringSink } from '../../src/core/flows/watch/stored-detail'
import { openDb, type Db } from '../../src/core/storage/db'
import { RunRowsTable } from '../../src/core/storage/tables/run-rows'

const ROWS = 20_000
const KEY = 'http://service.test'
let db: Db
let rows: RunRowsTable

beforeAll(() => {
  db = openDb(join(mkdtempSync(join(tmpdir(), 'sr-run-rows-')), 'history.db'))
  rows = new RunRowsTable(db)
})

const task = (i: number, status = 'running', errorMessage = ''): RunTask => ({
  taskId: `t${i}`,
  status,
  sourceRowIndex: i,
  artifactCount: status === 'succeeded' ? 1 : 0,
  errorMessage,
})

const output = (i: number): Artifact => ({
  artifactId: `a${i}`,
  taskId: `t${i}`,
  stepId: 'echo',
  portName: 'result',
  sourceRowIndex: i,
  mimeType: 'text/plain',
  accessUrl: '',
  inlineText: `row ${i} `.repeat(50),
  createdAtUnix: 1_700_000_000 + i,
})

/** One look: every task, in the given state, and the outputs of the rows done. */
function look(runId: string, state: (i: number) => RunTask, done: number, keepUpTo = 0) {
  const sink = new StoringSink(rows, KEY, runId, keepUpTo)
  for (let i = 0; i < ROWS; i++) sink.task(state(i))
  for (let i = 0; i < done; i++) sink.artifact(output(i))
  return sink.finish()
}

it('stores a run of 20,000 rows as it is read, without keeping it whole', () => {
  expect(look('big', (i) => task(i), 0)).toBeNull()
  expect(rows.counts(KEY, 'big')).toEqual({ tasks: ROWS, failed: 0, outputs: 0 })
  expect(
    rows.taskWindow(KEY, 'big', { from: 19_990, count: 50, filter: 'all', failed: 0 }),
  ).toHaveLength(10)
})

it('takes what changed at the next look, failed rows first in its windows', () => {
  const state = (i: number) =>
    i < 15_000
      ? task(i, i % 1000 === 7 ? 'failed' : 'succeeded', i % 1000 === 7 ? `row ${i} broke` : '')
      : task(i)
  look('big', state, 15_000)
  const changes = db.prepare('SELECT total_changes() AS n').get() as { n: number }
  // Nothing moved since: a look again writes nothing.
  look('big', state, 15_000)
  expect((db.prepare('SELECT total_changes() AS n').get() as { n: number }).n).toBe(changes.n)

  const counts = rows.counts(KEY, 'big')
  expect(counts).toEqual({ tasks: ROWS, failed: 15, outputs: 15_000 })
  const first = rows.taskWindow(KEY, 'big', { from: 0, count: 20, filter: 'all', failed: 15 })
  expect(first.slice(0, 15).map((t) => t.sourceRowIndex)).toEqual(
    Array.from({ length: 15 }, (_, k) => k * 1000 + 7),
  )
  expect(first[0]).toEqual(task(7, 'failed', 'row 7 broke'))
  expect(first.slice(15).map((t) => t.sourceRowIndex)).toEqual([0, 1, 2, 3, 4])
  const last = rows.taskWindow(KEY, 'big', { from: ROWS - 3, count: 50, filter: 'all', failed: 15 })
  expect(last.map((t) => t.sourceRowIndex)).toEqual([19_997, 19_998, 19_999])
  const failed = rows.taskWindow(KEY, 'big', { from: 10, count: 50, filter: 'failed', failed: 15 })
  expect(failed.map((t) => t.sourceRowIndex)).toEqual([10_007, 11_007, 12_007, 13_007, 14_007])
  expect(rows.output(KEY, 'big', 'a14999')).toEqual(output(14_999))
})

it('reads every task and output back in pages, in order', () => {
  const tasks = [...rows.taskPages(KEY, 'big', 1500)].flat()
  expect(tasks.map((t) => t.sourceRowIndex)).toEqual(Array.from({ length: ROWS }, (_, i) => i))
  const outputs = [...rows.outputPages(KEY, 'big', 700)].flat()
  expect(outputs.map((a) => a.artifactId)).toEqual(
    Array.from({ length: 15_000 }, (_, i) => `a${i}`),
  )
  // Ids alone, with their rows, in the same order.
  expect([...rows.outputIdPages(KEY, 'big', 700)].flat()).toEqual(
    outputs.map(({ artifactId, sourceRowIndex }) => ({ artifactId, sourceRowIndex })),
  )
  // For previews: each text cut to its first characters, the rest of each output as stored.
  const [first] = rows.outputsOf(KEY, 'big', 7)
  expect(first).toEqual({ ...output(0), inlineText: output(0).inlineText.slice(0, 7) })
})

it('counts a run’s tasks by status without reading them, some rows apart by row', () => {
  // 'big' as the look before left it: 15 of the first 15,000 rows failed, the rest ran.
  const tally = rows.taskTally(KEY, 'big', [7, 8, 19_999, 25_000])
  expect(new Map(tally.byStatus)).toEqual(
    new Map([
      ['succeeded', 15_000 - 15 - 1],
      ['failed', 15 - 1],
      ['running', ROWS - 15_000 - 1],
    ]),
  )
  expect(tally.apart).toEqual([
    [7, 1],
    [8, 1],
    [19_999, 1],
  ])
  expect(tally.lastRow).toBe(ROWS - 1)
  expect(rows.taskTally(KEY, 'none', []).lastRow).toBe(-1)
})

it('keeps a small run whole for its caller, and runs apart from each other', () => {
  const sink = new StoringSink(rows, KEY, 'small', 10)
  for (let i = 0; i < 3; i++) sink.task(task(i, 'succeeded'))
  sink.artifact(output(0))
  expect(sink.finish()).toEqual({
    tasks: [0, 1, 2].map((i) => task(i, 'succeeded')),
    artifacts: [output(0)],
  })
  expect(rows.counts(KEY, 'small')).toEqual({ tasks: 3, failed: 0, outputs: 1 })
  expect(rows.counts('http://other.test', 'small').tasks).toBe(0)
})

it('writes only the tasks that moved, the outputs new, and the addresses signed anew', () => {
  const signed = (i: number, mark: string): Artifact => ({
    ...output(i),
    accessUrl: `u${i}?${mark}`,
  })
  const read = (state: (i: number) => RunTask, outputs: Artifact[]) => {
    const sink = new StoringSink(rows, KEY, 'moves', 0)
    for (let i = 0; i < 1200; i++) sink.task(state(i))
    for (const a of outputs) sink.artifact(a)
    sink.finish()
  }
  const done = (upTo: number) => (i: number) => task(i, i < upTo ? 'succeeded' : 'running')
  const each = (n: number, make: (i: number) => Artifact) =>
    Array.from({ length: n }, (_, i) => make(i))
  read(
    done(600),
    each(600, (i) => signed(i, 'first')),
  )
  const changes = () => (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n
  const before = changes()

  // Three more rows done, one new output each; two earlier outputs' addresses signed anew.
  read(done(603), each(603, (i) => signed(i, i === 5 || i === 9 ? 'again' : 'first')))
  expect(changes() - before).toBe(3 + 3 + 2)
  expect(rows.taskWindow(KEY, 'moves', { from: 600, count: 4, filter: 'all', failed: 0 })).toEqual([
    task(600, 'succeeded'),
    task(601, 'succeeded'),
    task(602, 'succeeded'),
    task(603),
  ])
  expect(rows.output(KEY, 'moves', 'a9')).toEqual(signed(9, 'again'))
  expect(rows.output(KEY, 'moves', 'a602')).toEqual(signed(602, 'first'))
  expect(rows.outputWindow(KEY, 'moves', 600, 5).map((a) => a.artifactId)).toEqual([
    'a600',
    'a601',
    'a602',
  ])
})
