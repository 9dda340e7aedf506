// Fix and resend: the failed row of a run is fixed before it is retried. Only that row is sent,
// checked first like a workbook's cells; its new output becomes the row's kept version.
import ExcelJS from 'exceljs'
import { beforeAll, describe, expect, it } from 'vitest'
import { BridgeError } from '../../src/shared/bridge'
import { ipc, runEnded, sendRowEcho } from '../helpers/engine'
import { useLocalBridge } from '../helpers/local-bridge'

const { engine, connection, bridge } = useLocalBridge('sr-retry-fix-')
let runId: string

beforeAll(async () => {
  runId = await sendRowEcho(
    engine,
    connection,
    [{ message: 'first' }, { message: 'second [[fail]]' }, { message: 'third' }],
    [2, 3, 5],
  )
})

const plan = (edits?: { row: number; cells: Record<string, string> }[]) =>
  bridge.handlers.planRetryFailed({ environment: 'Local', runId, ...(edits ? { edits } : {}) }, ipc)

describe('fixing failed rows before they are sent again', () => {
  it('refuses a row that did not fail and a field the rows do not have', async () => {
    await expect(plan([{ row: 2, cells: { message: 'x' } }])).rejects.toThrow(/did not fail/)
    const error = await plan([{ row: 3, cells: { nope: 'x' } }]).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BridgeError)
    expect((error as BridgeError).category).toBe('bad-input')
    expect((error as BridgeError).message).toMatch(/no field "nope"/)
  })

  it('gives a plan that cannot be confirmed when a fixed cell does not fit', async () => {
    const bad = await plan([{ row: 3, cells: { message: '' } }])
    expect(bad.validation.valid).toBe(false)
    expect(bad.validation.rowErrors[0]).toMatchObject({ fieldKey: 'message', rowIndex: 0 })
    expect(bad.validation.rowErrors[0]!.error).toMatch(/^Row 3, .*required/)
    await expect(
      bridge.handlers.confirmSubmission(
        { environment: 'Local', planId: bad.planId, confirmed: true },
        ipc,
      ),
    ).rejects.toThrow()
  })

  it('sends only the fixed row, and its new output is the one kept', async () => {
    const unfixed = await plan()
    expect(unfixed.fixableRows).toEqual([
      {
        row: 3,
        error: expect.stringContaining('[[fail]]'),
        cells: [
          { key: 'message', label: 'Message', text: 'second [[fail]]', editable: true },
          { key: 'details', label: 'Details', text: '', editable: true },
          { key: 'sequence', label: 'Sequence number', text: '', editable: true },
        ],
      },
    ])
    const fixed = await plan([{ row: 3, cells: { message: 'second, fixed' } }])
    expect(fixed.validation.valid).toBe(true)
    expect(fixed.rowCount).toBe(1)
    expect(fixed.rowNumbers).toEqual([3])
    expect(fixed.retryOfRunId).toBe(runId)
    const sent = await bridge.handlers.confirmSubmission(
      { environment: 'Local', planId: fixed.planId, confirmed: true },
      ipc,
    )
    const retry = await runEnded(connection, sent.runId)
    expect(retry.run.status).toBe('succeeded')
    expect(engine.submissions.byRun(connection.historyKey, sent.runId)?.rows).toEqual([
      { message: 'second, fixed' },
    ])

    const versions = await bridge.handlers.rowVersions({ environment: 'Local', runId }, ipc)
    expect(versions.items).toEqual([
      {
        label: 'Row 3',
        versions: [
          { runId, status: 'failed' },
          { runId: sent.runId, status: 'succeeded' },
        ],
        kept: 1,
        index: 1,
        keptBy: 'rule',
      },
    ])
    // The results workbook of the first run shows the row's newest output, the fixed one.
    const results = await bridge.handlers.saveResultsWorkbook({ environment: 'Local', runId }, ipc)
    const book = new ExcelJS.Workbook()
    await book.xlsx.readFile(results.path)
    const row3 = book.getWorksheet('Results')!.getRow(3)
    expect(row3.getCell(1).value).toBe(3)
    expect(String(row3.getCell(3).value)).toBe('Succeeded')
    expect(JSON.stringify(row3.values)).toContain('second, fixed')

    // The unfixed retry is other content: the fixed one sent does not make it a duplicate, while
    // the same fix planned again is.
    expect(unfixed.duplicateOf ?? null).toBeNull()
    const again = await plan([{ row: 3, cells: { message: 'second, fixed' } }])
    expect(again.duplicateOf).toBeTruthy()
    expect((await plan()).duplicateOf ?? null).toBeNull()
  })
})
