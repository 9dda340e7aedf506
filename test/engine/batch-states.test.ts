// The batch's rows on a table of cases: each path a sheet goes through (pilot, rest, set aside,
// follow-up, retry as it was, retry fixed, redo, all again) and what every sheet row is then,
// with the rows already paid for; and the migration that builds batches from an earlier journal.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { batchRowStates, failedFirst, tallyOf } from '../../src/core/flows/batch/row-states'
import { paidBeforeOf } from '../../src/core/flows/spend/batch-plans'
import { Batches, storedFreshMs, type BatchState } from '../../src/core/flows/batch/batches'
import type { Connection } from '../../src/core/environments/connection'
import { openDb } from '../../src/core/storage/db'
import type { BatchSend, RunOutcomes } from '../../src/core/storage/tables/batches'
import { batchSummary } from '../../src/shared/format'
import { rollBackTo } from '../helpers/history-db'
import { until } from '../helpers/wait'
import { RunRowsTable } from '../../src/core/storage/tables/run-rows'
import { readStoredRun } from '../../src/core/flows/watch/stored-detail'
import type { RunDetailSink } from '../../src/core/service/run-detail-stream'
import type { RunSummary } from '../../src/shared/contract'

const SHEET = [2, 3, 4, 5, 6, 7, 8, 9]
/** The history's version once it has batches. */
const BATCHES_VERSION = 9

let ids = 0
function send(
  kind: string,
  runId: string,
  rowNumbers: number[],
  state: BatchSend['state'] = 'accepted',
): BatchSend {
  ids += 1
  return {
    submissionId: ids,
    runId,
    state,
    kind,
    rowNumbers,
    rowCount: rowNumbers.length,
    createdAtMs: ids,
  }
}
function ended(runId: string, outcomes: string, errors: string[] = []): [string, RunOutcomes] {
  return [
    runId,
    {
      runId,
      outcomes,
      errors,
      previews: [...outcomes].map((l, i) => (l === 's' ? `out ${runId} ${i}` : '')),
      ended: !outcomes.includes('p'),
    },
  ]
}

interface Case {
  name: string
  sends: BatchSend[]
  outcomes: [string, RunOutcomes][]
  setAside?: [number, string[]][]
  chosen?: [number, string][]
  /** Each sheet row's state, in sheet order, one letter: n not sent, a set aside, p pending, s succeeded, f failed. */
  states: string
  sentAgain: number
  summary: string
  /** Rows the plan would send again, and how many of them were paid for before. */
  sending?: number[]
  paid?: number
}

const LETTER: Record<string, string> = {
  'not-sent': 'n',
  'set-aside': 'a',
  pending: 'p',
  succeeded: 's',
  failed: 'f',
}

const cases: Case[] = [
  {
    name: 'a pilot of 3, still running',
    sends: [send('pilot', 'r1', [2, 3, 4])],
    outcomes: [ended('r1', 'spp')],
    states: 'sppnnnnn',
    sentAgain: 0,
    summary: '8 rows: 1 succeeded, 2 still running, 5 not sent yet',
    sending: SHEET,
    paid: 3,
  },
  {
    name: 'the pilot ended, then the rest: all rows again names the pilot’s',
    sends: [send('pilot', 'r1', [2, 3, 4]), send('rest', 'r2', [5, 6, 7, 8, 9])],
    outcomes: [ended('r1', 'sss'), ended('r2', 'ssfss', ['', '', 'bad'])],
    states: 'sssssfss',
    sentAgain: 0,
    summary: '8 rows: 7 succeeded, 1 failed',
    sending: SHEET,
    paid: 7,
  },
  {
    name: 'valid rows with two set aside, then the follow-up of the fixed ones',
    sends: [send('valid', 'r1', [2, 3, 5, 6, 8, 9]), send('follow-up', 'r2', [4, 7])],
    outcomes: [ended('r1', 'ssssss'), ended('r2', 'ss')],
    setAside: [
      [4, ['Seq is not a number']],
      [7, ['Seq is not a number']],
    ],
    states: 'ssssssss',
    sentAgain: 0,
    summary: '8 rows: 8 succeeded',
  },
  {
    name: 'set aside and not yet sent back',
    sends: [send('valid', 'r1', [2, 3, 5, 6, 8, 9])],
    outcomes: [ended('r1', 'ssssss')],
    setAside: [
      [4, ['Seq is not a number']],
      [7, ['Seq is not a number']],
    ],
    states: 'ssassass',
    sentAgain: 0,
    summary: '8 rows: 6 succeeded, 2 set aside to fix',
  },
  {
    name: 'a failed row retried as it was, failing again',
    sends: [send('all', 'r1', SHEET), send('retry', 'r2', [5])],
    outcomes: [ended('r1', 'sssfssss', ['', '', '', 'x']), ended('r2', 'f', ['x'])],
    states: 'sssfssss',
    sentAgain: 1,
    summary: '8 rows: 7 succeeded, 1 failed',
    sending: [5],
    paid: 0,
  },
  {
    name: 'a failed row fixed and retried: succeeded, and not paid again by a retry',
    sends: [send('all', 'r1', SHEET), send('retry', 'r2', [5])],
    outcomes: [ended('r1', 'sssfssss', ['', '', '', 'x']), ended('r2', 's')],
    states: 'ssssssss',
    sentAgain: 1,
    summary: '8 rows: 7 succeeded, 1 failed, then was sent again and succeeded',
    sending: [5],
    paid: 1,
  },
  {
    name: 'a redo of two rows still running',
    sends: [send('all', 'r1', SHEET), send('redo', 'r2', [3, 7])],
    outcomes: [ended('r1', 'ssssssss'), ended('r2', 'pp')],
    states: 'spssspss',
    sentAgain: 2,
    summary: '8 rows: 6 succeeded, 2 still running',
  },
  {
    name: 'a redo that failed keeps the earlier success; a chosen version is kept over the rule',
    sends: [send('all', 'r1', SHEET), send('redo', 'r2', [3, 7])],
    outcomes: [ended('r1', 'ssssssss'), ended('r2', 'fs', ['worse'])],
    chosen: [[7, 'r1']],
    states: 'ssssssss',
    sentAgain: 2,
    summary: '8 rows: 8 succeeded',
  },
  {
    name: 'all again while a send is unanswered: not paid yet, so not counted as paid',
    sends: [send('all', '', SHEET, 'sent')],
    outcomes: [],
    states: 'pppppppp',
    sentAgain: 0,
    summary: '8 rows: 8 still running',
    sending: SHEET,
    paid: 0,
  },
]

describe('every sheet row across the batch', () => {
  for (const c of cases) {
    it(c.name, () => {
      const input = {
        sheetRows: SHEET,
        setAside: new Map(c.setAside ?? []),
        sends: c.sends,
        outcomes: new Map(c.outcomes),
        chosen: new Map(c.chosen ?? []),
      }
      const rows = batchRowStates(input)
      expect(rows.map((r) => LETTER[r.state]).join('')).toBe(c.states)
      const tally = tallyOf(rows, failedFirst(input))
      expect(tally.sentAgain).toBe(c.sentAgain)
      expect(batchSummary(tally)).toBe(c.summary)
      if (c.sending) {
        const state = { rows, sends: c.sends } as unknown as BatchState
        expect(paidBeforeOf(state, c.sending)?.sheetRows.length ?? 0).toBe(c.paid)
      }
    })
  }

  it('names each row’s problem, the run of its kept version and its preview', () => {
    const rows = batchRowStates({
      sheetRows: [2, 3],
      setAside: new Map([[3, ['Seq is not a number']]]),
      sends: [send('valid', 'r1', [2])],
      outcomes: new Map([ended('r1', 's')]),
    })
    expect(rows[0]).toMatchObject({
      state: 'succeeded',
      runId: 'r1',
      keptRunId: 'r1',
      preview: 'out r1 0',
    })
    expect(rows[1]).toMatchObject({ state: 'set-aside', problems: ['Seq is not a number'] })
  })

  it('the words for the confirm name the pilot', () => {
    const sends = [send('pilot', 'r1', [2, 3, 4])]
    const rows = batchRowStates({
      sheetRows: SHEET,
      setAside: new Map(),
      sends,
      outcomes: new Map([ended('r1', 'sss')]),
    })
    const paid = paidBeforeOf({ rows, sends } as unknown as BatchState, SHEET)
    expect(paid?.words).toBe(
      '3 of these 8 rows were sent in the pilot and succeeded or are still running: they would be paid again.',
    )
  })
})

describe('the migration from a journal of the earlier shape', () => {
  it('builds one batch per first send and joins its rest, retries, redos and follow-ups to it', () => {
    const home = mkdtempSync(join(tmpdir(), 'sr-batch-migration-'))
    const path = join(home, 'history.db')
    let db = openDb(path)
    rollBackTo(db, BATCHES_VERSION - 1)
    const insert = db.prepare(
      `INSERT INTO submissions (client_request_id, environment, origin, target_kind, target_id, fingerprint,
         input_filename, row_count, rows_json, row_numbers_json, state, run_id, retry_of_run_id,
         follow_up_of_run_id, batch_of_run_id, workbook_rows, input_sha256, created_at_ms, updated_at_ms)
       VALUES (?, 'Local', 'o', 'template', 'row-echo', ?, ?, ?, '[]', '[]', 'accepted', ?, ?, ?, ?, ?, 'sha', ?, ?)`,
    )
    const rows: [string, string, number, string, string, string, string, number][] = [
      // file, rows, run, retry of, follow-up of, batch of, workbook rows
      ['march.xlsx', '', 3, 'pilot', '', '', '', 20],
      ['march.xlsx', '', 15, 'rest', '', '', 'pilot', 20],
      ['march.xlsx', '', 1, 'retry', 'rest', '', '', 0],
      ['march.xlsx', '', 1, 'retry2', 'retry', '', '', 0],
      ['march (set aside).xlsx', '', 2, 'follow', 'pilot', 'pilot', '', 2],
      ['april.csv', '', 5, 'alone', '', '', '', 5],
    ].map((r, i) => [
      r[0] as string,
      `fp${i}`,
      r[2] as number,
      r[3] as string,
      r[4] as string,
      r[5] as string,
      r[6] as string,
      r[7] as number,
    ])
    rows.forEach(([file, fp, n, run, retry, follow, batch, workbook], i) =>
      insert.run(`req-${i}`, fp, file, n, run, retry, follow, batch, workbook, i, i),
    )
    db.close()

    db = openDb(path)
    const got = db
      .prepare('SELECT run_id, batch_id, send_kind FROM submissions ORDER BY id')
      .all() as { run_id: string; batch_id: string; send_kind: string }[]
    const batchOf = new Map(got.map((r) => [r.run_id, r.batch_id]))
    for (const run of ['rest', 'retry', 'retry2', 'follow'])
      expect(batchOf.get(run)).toBe(batchOf.get('pilot'))
    expect(batchOf.get('alone')).not.toBe(batchOf.get('pilot'))
    expect(got.map((r) => r.send_kind)).toEqual([
      'pilot',
      'rest',
      'retry',
      'retry',
      'follow-up',
      'all',
    ])
    const batches = db
      .prepare('SELECT id, input_filename FROM batches ORDER BY created_at_ms')
      .all()
    expect(batches).toEqual([
      { id: batchOf.get('pilot'), input_filename: 'march.xlsx' },
      { id: batchOf.get('alone'), input_filename: 'april.csv' },
    ])
    db.close()
  })

  it('reads a batch again from its state kept, until a run of it has new outcomes', async () => {
    const db = historyWithOneRun('sr-batch-kept-')
    const batches = new Batches(db, { keptVersions: () => new Map(), seenRun: () => null })
    const connection = { historyKey: 'o' } as Connection
    const batchId = batches.ofRun('o', 'run_a')!.id
    // An ask that keeps nothing (the results workbook's sentence) leaves no state held.
    const once = await batches.state(connection, batchId, { offline: true, keep: false })
    const first = await batches.state(connection, batchId, { offline: true })
    expect(first).not.toBe(once)
    expect(first).toEqual(once)
    expect(await batches.state(connection, batchId, { offline: true })).toBe(first)
    db.prepare(
      `INSERT INTO run_outcomes (origin, run_id, outcomes, ended, seen_at_ms) VALUES ('o', 'run_a', 'sf', 1, 5)`,
    ).run()
    const after = await batches.state(connection, batchId, { offline: true })
    expect(after).not.toBe(first)
    expect(after!.counts).toMatchObject({ succeeded: 1, failed: 1 })
    db.close()
  })
})

it('takes the rows the watcher has just stored of a run, rather than reading its detail again', async () => {
  const db = historyWithOneRun('sr-batch-stored-')
  const rows = new RunRowsTable(db)
  let seen: RunSummary | null = null
  const batches = new Batches(db, { keptVersions: () => new Map(), seenRun: () => seen }, rows)
  let reads = 0
  let done = 1
  let run = { runId: 'run_a', status: 'running', updatedAtUnix: 1 } as RunSummary
  const client = {
    async readRun(_runId: string, open: () => RunDetailSink) {
      reads += 1
      const sink = open()
      for (let i = 0; i < 2; i++)
        sink.task({
          taskId: `t${i}`,
          status: i < done ? 'succeeded' : 'running',
          sourceRowIndex: i,
          artifactCount: 0,
          errorMessage: '',
        })
      return { run, market: undefined }
    },
  }
  const connection = { historyKey: 'o', client } as unknown as Connection
  const batchId = batches.ofRun('o', 'run_a')!.id
  const counts = async () => (await batches.state(connection, batchId))!.counts

  // The run's page watches it: its detail was stored by a look just now.
  await readStoredRun(client, rows, { historyKey: 'o', runId: 'run_a', keepUpTo: 0 })
  expect(await counts()).toMatchObject({ succeeded: 1 })
  expect(await counts()).toMatchObject({ succeeded: 1 })
  expect(reads).toBe(1)
  // The next look stored a row done since: the batch takes it from there too.
  done = 2
  await readStoredRun(client, rows, { historyKey: 'o', runId: 'run_a', keepUpTo: 0 })
  expect(await counts()).toMatchObject({ succeeded: 2 })
  expect(reads).toBe(2)
  // The list has since seen the run move on, still going: the page asks at each update, and the
  // recent reading stands rather than a whole detail read each time.
  seen = { ...run, updatedAtUnix: 5 } as RunSummary
  expect(await counts()).toMatchObject({ succeeded: 2 })
  expect(reads).toBe(2)
  // The history has seen the run end since that look: the reading of it running is not taken,
  // and the detail is read again.
  const ended = { ...run, status: 'succeeded', updatedAtUnix: 2 } as RunSummary
  seen = ended
  run = ended
  expect(await counts()).toMatchObject({ succeeded: 2 })
  expect(reads).toBe(3)
  db.close()
})

it('takes a stored reading for longer the bigger its run, never for its end, and makes no state again from it', async () => {
  expect([2, 1000, 3000, 6000, 100_000].map(storedFreshMs)).toEqual([
    10_000, 10_000, 30_000, 60_000, 60_000,
  ])
  const db = historyWithOneRun('sr-batch-fresh-')
  const rows = new RunRowsTable(db)
  let later = 0
  const history = { keptVersions: () => new Map(), seenRun: () => null }
  const batches = new Batches(db, history, rows, () => Date.now() + later)
  let reads = 0
  const client = {
    async readRun(_runId: string, open: () => RunDetailSink) {
      reads += 1
      open()
      const run = { runId: 'run_a', status: 'running', updatedAtUnix: 1 } as RunSummary
      return { run, market: undefined }
    },
  }
  const connection = { historyKey: 'o', client } as unknown as Connection
  const batchId = batches.ofRun('o', 'run_a')!.id
  await readStoredRun(client, rows, { historyKey: 'o', runId: 'run_a', keepUpTo: 0 })
  // The batch's run has 2 rows: its reading stands for 10 s.
  later = 9_000
  const first = await batches.state(connection, batchId)
  expect(reads).toBe(1)
  // Nothing new read: the state made from the same reading is given again, not made anew.
  later = 9_500
  expect(await batches.state(connection, batchId)).toBe(first)
  later = 11_000
  const after = await batches.state(connection, batchId)
  expect(reads).toBe(2)
  expect(after).not.toBe(first)
  db.close()
})

it('reads a run once for asks of its batch at the same time, and again for an ask whose shared reading was given up', async () => {
  const db = historyWithOneRun('sr-batch-shared-')
  const history = { keptVersions: () => new Map(), seenRun: () => null }
  const batches = new Batches(db, history)
  let reads = 0
  /** The reads under way, each answered when the test says (and every read after it). */
  let waiting: (() => void)[] = []
  let answered = false
  const answer = () => {
    answered = true
    for (const go of waiting.splice(0)) go()
  }
  const client = {
    async readRun(_runId: string, open: () => RunDetailSink, options?: { signal?: AbortSignal }) {
      reads += 1
      const sink = open()
      // The detail comes when the test says, or never for an ask given up.
      if (!answered)
        await new Promise<void>((resolve, reject) => {
          waiting.push(resolve)
          options?.signal?.addEventListener('abort', () => reject(options.signal!.reason))
        })
      for (let i = 0; i < 2; i++)
        sink.task({
          taskId: `t${i}`,
          status: 'succeeded',
          sourceRowIndex: i,
          artifactCount: 0,
          errorMessage: '',
        })
      return {
        run: { runId: 'run_a', status: 'succeeded', updatedAtUnix: 1 } as RunSummary,
        market: undefined,
      }
    },
  }
  const connection = { historyKey: 'o', client } as unknown as Connection
  const batchId = batches.ofRun('o', 'run_a')!.id
  const asks = [1, 2, 3].map(() => batches.state(connection, batchId))
  await until(() => waiting.length > 0)
  answer()
  const states = await Promise.all(asks)
  expect(reads).toBe(1)
  for (const state of states) expect(state!.counts).toMatchObject({ succeeded: 2 })

  // Another batch's state, asked twice at once; the first asker gives up while it reads: the
  // second reads the run itself rather than taking the failure for its own.
  const second = historyWithOneRun('sr-batch-shared-2-')
  const batches2 = new Batches(second, history)
  const batch2 = batches2.ofRun('o', 'run_a')!.id
  reads = 0
  answered = false
  const giveUp = new AbortController()
  const first = batches2.state(connection, batch2, { signal: giveUp.signal })
  const later = batches2.state(connection, batch2)
  await until(() => waiting.length > 0)
  waiting = []
  giveUp.abort(new Error('the page was closed'))
  await expect(first).rejects.toThrow('the page was closed')
  await until(() => waiting.length > 0)
  answer()
  expect((await later)!.counts).toMatchObject({ succeeded: 2 })
  expect((await later)!.stale).toBe(false)
  expect(reads).toBe(2)
  db.close()
  second.close()
})

/**
 * A history journaled before batches (one accepted submission of sheet rows 2 and 3, run_a),
 * opened again so the migration makes its batch.
 */
function historyWithOneRun(prefix: string) {
  const path = join(mkdtempSync(join(tmpdir(), prefix)), 'history.db')
  const old = openDb(path)
  rollBackTo(old, BATCHES_VERSION - 1)
  old
    .prepare(
      `INSERT INTO submissions (client_request_id, environment, origin, target_kind, target_id, fingerprint,
         input_filename, row_count, rows_json, row_numbers_json, state, run_id, retry_of_run_id,
         follow_up_of_run_id, batch_of_run_id, workbook_rows, input_sha256, created_at_ms, updated_at_ms)
       VALUES ('req', 'Local', 'o', 'template', 'row-echo', 'fp', 'may.xlsx', 2, '[]', '[2,3]',
         'accepted', 'run_a', '', '', '', 2, 'sha', 1, 1)`,
    )
    .run()
  old.close()
  return openDb(path)
}
