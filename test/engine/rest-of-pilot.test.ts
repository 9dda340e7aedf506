// A pilot, then the rest: the real engine and the real sandbox over HTTP. A pilot of 5 of a
// 50-row workbook, then the rest planned from what the journal knows (which rows, from which
// workbook): 45 rows, none of the pilot's, priced from the pilot, not stopped by the guard
// against identical submissions, and the two runs kept as one batch. A changed workbook is said.
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Connection, Engine } from '../../src/core/engine'
import { listHistory } from '../../src/core/flows/history/history-view'
import {
  confirmPlan,
  describePlan,
  pilotRest,
  planRestOfPilot,
  planSubmission,
} from '../../src/core/flows/spend'
import type { ReadSheet } from '../../src/core/flows/spend/set-aside'
import { parseInputWorkbook } from '../../src/core/workbooks'
import { runEnded, testEngine } from '../helpers/engine'
import { runCount, useTestSandbox } from '../helpers/sandbox'

const sandbox = useTestSandbox()
let engine: Engine
let connection: Connection
let home: string

const read: ReadSheet = (path, schema) =>
  parseInputWorkbook({ path }, schema, { keepRows: true, checkFiles: true })
const runs = () => runCount(sandbox)

/** A CSV of one Message column and `count` rows, `<word> 1` to `<word> <count>`, in the home. */
function messagesCsv(name: string, word: string, count: number): string {
  const path = join(home, name)
  const rows = Array.from({ length: count }, (_, i) => `${word} ${i + 1}`)
  writeFileSync(path, ['Message', ...rows].join('\n'))
  return path
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'sr-rest-of-pilot-'))
  engine = testEngine(home)
  await engine.addEnvironment({ name: 'Local', baseUrl: sandbox.url, token: sandbox.token })
  connection = await engine.connect({ env: 'Local' })
})
afterAll(async () => {
  await engine.close()
})

describe('a pilot, then the rest of its workbook', () => {
  it('sends the 45 rows the pilot of 5 did not, each row paid once, as one batch', async () => {
    const csv = messagesCsv('fifty.csv', 'row', 50)
    const target = { kind: 'template', templateId: 'row-echo' } as const
    const before = await runs()

    const pilotPlan = await planSubmission(engine, connection, read, {
      file: csv,
      target,
      selection: { first: 5 },
    })
    expect(pilotPlan.pilotRows).toBe(5)
    const pilot = (await confirmPlan(engine, pilotPlan, { confirmed: true })).submission
    const pilotRun = (await runEnded(connection, pilot.runId)).run
    expect(pilotRun.totalTasks).toBe(5)

    const rest = await planRestOfPilot(engine, connection, read, pilot.runId)
    expect(rest.rows).toHaveLength(45)
    expect(rest.rowNumbers).toEqual(Array.from({ length: 45 }, (_, i) => i + 7))
    expect(rest.batchOfRunId).toBe(pilot.runId)
    // Not an identical submission: the guard against sending twice does not stand in the way.
    expect(rest.duplicateOf).toBeNull()
    // Priced before sending from what the pilot actually cost per row.
    const perRow = pilotRun.actualCostT / pilotRun.completedTasks
    expect(rest.estimateSource).toBe('pilot')
    expect(rest.estimateT).toBe(Math.ceil(perRow * 45))
    expect(describePlan(rest)).toContain(
      `the pilot (run ${pilot.runId}) did not send: rows 7 to 51; the pilot’s rows are not sent again`,
    )

    const restSent = (await confirmPlan(engine, rest, { confirmed: true })).submission
    const restRun = (await runEnded(connection, restSent.runId)).run
    expect(restRun.totalTasks).toBe(45)
    expect(await runs()).toBe(before + 2)

    // Every row of the workbook went once, in one of the two runs, and was paid once.
    const journaled = (id: number) => engine.submissions.get(id).rows
    const sent = [...journaled(pilot.id), ...journaled(restSent.id)].map((r) => r.message)
    expect(new Set(sent).size).toBe(50)
    expect(sent).toHaveLength(50)
    expect(pilotRun.actualCostT + restRun.actualCostT).toBe(perRow * 50)

    // One batch: the journal and the history name the pilot and its rest together.
    expect(engine.submissions.batchRuns(connection.historyKey, pilot.runId)).toEqual([
      pilot.runId,
      restSent.runId,
    ])
    const page = listHistory(engine.history, engine.submissions, () => 'credits')
    const restEntry = page.items.find((e) => e.runId === restSent.runId)
    const pilotEntry = page.items.find((e) => e.runId === pilot.runId)
    expect(restEntry?.batchOfRunId).toBe(pilot.runId)
    expect(pilotEntry?.batchRests).toEqual([restSent.runId])

    // Nothing is left: asking for the rest again sends nothing.
    await expect(planRestOfPilot(engine, connection, read, pilot.runId)).rejects.toMatchObject({
      category: 'refused',
      message: expect.stringContaining('Nothing is left to send'),
    })
  })

  it('prices the rest from its own pilot, whatever else of the template was sent since', async () => {
    const target = { kind: 'template', templateId: 'row-echo' } as const
    const pilotPlan = await planSubmission(engine, connection, read, {
      file: messagesCsv('twelve.csv', 'twelve', 12),
      target,
      selection: { first: 2 },
    })
    const pilot = (await confirmPlan(engine, pilotPlan, { confirmed: true })).submission
    const pilotRun = (await runEnded(connection, pilot.runId)).run
    // Three later runs of the same template whose every row fails: none tells a cost per row.
    for (const name of ['a', 'b', 'c']) {
      const plan = await planSubmission(engine, connection, read, {
        file: messagesCsv(`fails-${name}.csv`, `[[fail]] ${name}`, 1),
        target,
      })
      await runEnded(
        connection,
        (await confirmPlan(engine, plan, { confirmed: true })).submission.runId,
      )
    }
    const perRow = pilotRun.actualCostT / pilotRun.completedTasks
    const rest = await planRestOfPilot(engine, connection, read, pilot.runId)
    expect(rest.estimateSource).toBe('pilot')
    expect(rest.learnedFrom?.runId).toBe(pilot.runId)
    expect(rest.estimateT).toBe(Math.ceil(perRow * 10))
    engine.plans.drop(rest.id)
    const card = await pilotRest(engine, connection, pilot.runId)
    expect(card?.learnedFrom?.runId).toBe(pilot.runId)
  })

  it('reads the copy kept with the pilot when the workbook changed since, and says so', async () => {
    const csv = messagesCsv('ten.csv', 'ten', 10)
    const pilotPlan = await planSubmission(engine, connection, read, {
      file: csv,
      target: { kind: 'template', templateId: 'row-echo' },
      selection: { first: 2 },
    })
    const pilot = (await confirmPlan(engine, pilotPlan, { confirmed: true })).submission
    appendFileSync(csv, '\nadded after the pilot')
    const steps: string[] = []
    const rest = await planRestOfPilot(engine, connection, read, pilot.runId, {
      onStep: (line) => steps.push(line),
    })
    expect(steps.join('\n')).toContain('ten.csv changed or moved since run')
    // The workbook as the pilot saw it: 8 rows left, not the row added since.
    expect((await rest.rows.slice(0, rest.rows.length)).map((r) => r.message)).toEqual(
      Array.from({ length: 8 }, (_, i) => `ten ${i + 3}`),
    )
    engine.plans.drop(rest.id)
  })
})
