// Fix and resend from a corrected workbook: the real engine, the Bridge and the sandbox over
// HTTP. A 4-row workbook is sent; rows 3 and 5 fail. The same workbook, fixed in those rows and
// given back, gives a retry of only them with the workbook's new cells, checked like typed fixes.
// A workbook whose rows moved, one that changes no failed row, and a fix that does not fit are
// each said, and nothing is sent for them.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { confirmPlan, planSubmission } from '../../src/core/flows/spend'
import { parseInputWorkbook } from '../../src/core/workbooks'
import { BridgeError } from '../../src/shared/bridge'
import { http, ipc, runEnded } from '../helpers/engine'
import { useLocalBridge } from '../helpers/local-bridge'
import { runCount } from '../helpers/sandbox'

const { sandbox, engine, connection, bridge, home } = useLocalBridge('sr-retry-workbook-')
let runId: string

const HEADER = 'Message,Sequence number'
const SENT = ['a,1', 'b [[fail]],2', 'c,3', 'd [[fail]],4']

function csv(name: string, lines: string[]): string {
  const path = join(home(), name)
  writeFileSync(path, [HEADER, ...lines].join('\n'))
  return path
}
const runs = () => runCount(sandbox)

beforeAll(async () => {
  const planned = await planSubmission(
    engine,
    connection,
    (path, schema) => parseInputWorkbook({ path }, schema, { checkFiles: true }),
    { file: csv('sent.csv', SENT), target: { kind: 'template', templateId: 'row-echo' } },
  )
  runId = (await confirmPlan(engine, planned, { confirmed: true })).submission.runId
  const ended = await runEnded(connection, runId)
  expect(ended.run.failedTasks).toBe(2)
})

const fromFile = (path: string) =>
  bridge.handlers.planRetryFailed(
    { environment: 'Local', runId, file: { kind: 'path', path, name: 'fixed.csv' } },
    ipc,
  )

describe('failed rows fixed in a corrected workbook', () => {
  it('refuses a workbook whose rows are not where the run’s were', async () => {
    const before = await runs()
    const moved = csv('moved.csv', ['new first row,9', ...SENT])
    const error = await fromFile(moved).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BridgeError)
    expect((error as BridgeError).category).toBe('bad-input')
    expect((error as BridgeError).message).toMatch(
      /Row 2 of “fixed.csv” is not the row this run sent as row 2/,
    )
    expect((error as BridgeError).nextStep).toMatch(/no rows added, removed or moved/)
    // The same workbook, unchanged: nothing to take from it.
    await expect(fromFile(csv('same.csv', SENT))).rejects.toThrow(
      /None of the failed rows \(3, 5\) is changed/,
    )
    expect(await runs()).toBe(before)
  })

  it('checks the corrected cells like typed ones: a fix that does not fit cannot be sent', async () => {
    const bad = await fromFile(csv('bad.csv', ['a,1', 'b fixed,n/a', 'c,3', 'd fixed,4']))
    expect(bad.validation.valid).toBe(false)
    expect(bad.validation.rowErrors).toEqual([
      expect.objectContaining({ fieldKey: 'sequence', rowIndex: 0 }),
    ])
    expect(bad.validation.rowErrors[0]!.error).toMatch(/^Row 3, Sequence number/)
    expect(bad.fixesFromWorkbook).toEqual([
      { row: 3, cells: { message: 'b fixed', sequence: 'n/a' } },
      { row: 5, cells: { message: 'd fixed' } },
    ])
  })

  it('sends only the failed rows with the workbook’s fixes, through the same confirm', async () => {
    const before = await runs()
    // As a browser sends it: the workbook's bytes.
    const text = [HEADER, 'a,1', 'b fixed,2', 'c,3', 'd fixed,4'].join('\n')
    const plan = await bridge.handlers.planRetryFailed(
      {
        environment: 'Local',
        runId,
        file: { kind: 'bytes', name: 'fixed.csv', base64: Buffer.from(text).toString('base64') },
      },
      http,
    )
    expect(plan.validation.valid).toBe(true)
    expect(plan.rowNumbers).toEqual([3, 5])
    expect(plan.fixesFromWorkbook).toEqual([
      { row: 3, cells: { message: 'b fixed' } },
      { row: 5, cells: { message: 'd fixed' } },
    ])
    expect(await runs()).toBe(before)
    const sent = await bridge.handlers.confirmSubmission(
      { environment: 'Local', planId: plan.planId, confirmed: true },
      http,
    )
    const retry = await runEnded(connection, sent.runId!)
    expect(retry.run.totalTasks).toBe(2)
    expect(retry.run.completedTasks).toBe(2)
    expect(await runs()).toBe(before + 1)
    const journaled = engine.submissions.byRun(connection.historyKey, sent.runId!)
    expect(journaled?.retryOfRunId).toBe(runId)
    expect(journaled?.rows.map((r) => [r.message, r.sequence])).toEqual([
      ['b fixed', 2],
      ['d fixed', 4],
    ])
  })
})
