// "Keep this one": which version of a re-sent row is kept is the user's choice once made, kept in
// the history on disk (it survives the engine closing), watched by the rows' versions and the
// results workbook; without a choice the newest version that succeeded is kept.
import ExcelJS from 'exceljs'
import { beforeAll, describe, expect, it } from 'vitest'
import { BridgeError } from '../../src/shared/bridge'
import { ipc, runEnded, sendRowEcho } from '../helpers/engine'
import { useLocalBridge } from '../helpers/local-bridge'

const { engine, connection, bridge, reopen } = useLocalBridge('sr-kept-version-')
let runId: string
let redoRunId: string

beforeAll(async () => {
  const rows = [{ message: 'one' }, { message: 'two' }, { message: 'three' }]
  runId = await sendRowEcho(engine, connection, rows, [2, 3, 4])
  const plan = await bridge.handlers.planRedo({ environment: 'Local', runId, rows: [2, 4] }, ipc)
  const sent = await bridge.handlers.confirmSubmission(
    { environment: 'Local', planId: plan.planId, confirmed: true },
    ipc,
  )
  redoRunId = sent.runId
  await runEnded(connection, redoRunId)
})

const versions = () => bridge.handlers.rowVersions({ environment: 'Local', runId }, ipc)
const keep = (index: number, version: number) =>
  bridge.handlers.keepRowVersion({ environment: 'Local', runId, index, version }, ipc)

/** The text of the results workbook's line for a sheet row (its output's link names the run). */
async function resultsLine(sheetRow: number): Promise<string> {
  const results = await bridge.handlers.saveResultsWorkbook({ environment: 'Local', runId }, ipc)
  const book = new ExcelJS.Workbook()
  await book.xlsx.readFile(results.path)
  const lines = book.getWorksheet('Results')!.getSheetValues() as unknown[][]
  return JSON.stringify(lines.find((line) => line?.[1] === sheetRow))
}

describe('a redo of a run that belongs to no batch', () => {
  it('is journaled and listed in History as a redo, not a retry', async () => {
    const history = await bridge.handlers.listHistory({}, ipc)
    const redo = history.items.find((entry) => entry.runId === redoRunId)
    expect(redo).toMatchObject({ retryOfRunId: runId, sendKind: 'redo' })
    expect(redo?.batchId).toBeUndefined()
    expect(engine.submissions.byRun(connection.historyKey, redoRunId)?.sendKind).toBe('redo')
  })
})

describe('choosing the kept version of a re-sent row', () => {
  it('keeps the newest version that succeeded until the user chooses', async () => {
    expect((await versions()).items).toEqual([
      expect.objectContaining({ label: 'Row 2', index: 0, kept: 1, keptBy: 'rule' }),
      expect.objectContaining({ label: 'Row 4', index: 2, kept: 1, keptBy: 'rule' }),
    ])
    expect(await resultsLine(2)).toContain(redoRunId)
  })

  it('keeps the version chosen, in the versions and the results workbook', async () => {
    const kept = await keep(0, 0)
    expect(kept.items[0]).toMatchObject({ label: 'Row 2', kept: 0, keptBy: 'choice' })
    expect(kept.items[1]).toMatchObject({ label: 'Row 4', kept: 1, keptBy: 'rule' })
    const row2 = await resultsLine(2)
    expect(row2).toContain(runId)
    expect(row2).not.toContain(redoRunId)
    // The other redone row still watches the rule.
    expect(await resultsLine(4)).toContain(redoRunId)
  })

  it('remembers the choice in the history on disk', async () => {
    await reopen()
    expect((await versions()).items[0]).toMatchObject({ kept: 0, keptBy: 'choice' })
    // Chosen again: the later version, now by choice.
    expect((await keep(0, 1)).items[0]).toMatchObject({ kept: 1, keptBy: 'choice' })
    expect((await versions()).items[0]).toMatchObject({ kept: 1, keptBy: 'choice' })
  })

  it('refuses a version the row does not have, and a row never sent again', async () => {
    const tooFar = await keep(0, 5).catch((e: unknown) => e)
    expect(tooFar).toBeInstanceOf(BridgeError)
    expect((tooFar as BridgeError).category).toBe('not-found')
    expect((tooFar as BridgeError).message).toMatch(/has 2 versions; there is no version 6/)
    await expect(keep(1, 1)).rejects.toThrow(/never sent again/)
  })
})
