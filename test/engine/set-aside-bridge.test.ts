// Sending the valid rows and setting the rest aside, through the Bridge handlers with the real
// engine, the real sandbox over HTTP and the real workbook worker: 50 rows with 3 bad give a
// plan of 47 priced for 47, the 3 go to a workbook kept with the run, and that workbook, fixed
// and dropped again, is planned as the run's follow-up, which the duplicate guard lets through.
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import type { BridgeService } from '../../src/core/bridge/service'
import { http } from '../helpers/engine'
import { useBridgeOnSandbox } from '../helpers/bridge-on-sandbox'

let service: BridgeService
const target = { kind: 'template' as const, templateId: 'row-echo' }

useBridgeOnSandbox('sr-aside-bridge-', (parts) => ({ service } = parts))

const BAD = [7, 20, 41]
function csv(name: string, rows: number[]) {
  const lines = ['Message,Sequence number']
  for (const i of rows) lines.push(`Hello ${i},${BAD.includes(i) ? 'n/a' : i}`)
  return { kind: 'bytes' as const, name, base64: Buffer.from(lines.join('\n')).toString('base64') }
}
const all = Array.from({ length: 50 }, (_, i) => i + 1)

describe('set the rows with problems aside (Bridge)', () => {
  it('plans the 47 valid rows of 50, keeps the 3 to fix with the run, and sends them fixed as its follow-up', async () => {
    const plan = (file: ReturnType<typeof csv>, skipInvalid?: boolean) =>
      service.handlers.planSubmission(
        { environment: 'Local', file, target, ...(skipInvalid ? { skipInvalid } : {}) },
        http,
      )
    const refused = await plan(csv('fifty.csv', all))
    expect(refused.planId).toBe('')

    const valid = await plan(csv('fifty.csv', all), true)
    expect(valid.planId).not.toBe('')
    expect(valid.rowCount).toBe(47)
    expect(valid.setAsideRows).toBe(3)
    expect(valid.rowNumbers).not.toContain(8)
    // Priced as the 47 valid rows alone would be.
    const alone = await plan(
      csv(
        'forty-seven.csv',
        all.filter((i) => !BAD.includes(i)),
      ),
    )
    expect(valid.estimateT).toBe(alone.estimateT)
    expect(valid.summary).toMatch(/47 rows/)

    const sent = await service.handlers.confirmSubmission(
      { environment: 'Local', planId: valid.planId, confirmed: true },
      http,
    )
    expect(sent.runId).toBeTruthy()

    const history = await service.handlers.listHistory({}, http)
    const entry = history.items.find((i) => i.runId === sent.runId)
    expect(entry?.setAsideRows).toBe(3)

    const saved = await service.handlers.saveSetAsideRows(
      { environment: 'Local', runId: sent.runId! },
      http,
    )
    expect(saved?.kind).toBe('bytes')
    // Named by the template, the workbook and the day, never the service's run id.
    expect(saved!.fileName).not.toContain(sent.runId!)
    expect(saved!.fileName).toMatch(
      /^Row echo - fifty - \d{1,2} [A-Z][a-z]{2} \d{4} rows to fix\.xlsx$/,
    )
    const bytes = Buffer.from(saved!.kind === 'bytes' ? saved!.base64 : '', 'base64')
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(bytes as unknown as ArrayBuffer)
    const sheet = book.getWorksheet('To fix')!
    expect(sheet.rowCount).toBe(4)
    expect(sheet.getCell('A2').value).toBe('Hello 7')
    expect(String(sheet.getCell('C2').value)).toMatch(/not a whole number/)
    expect(book.getWorksheet('Set aside')!.getColumn(2).values).toContain(sent.runId)

    for (const r of [2, 3, 4]) sheet.getCell(r, 2).value = r
    const fixed = Buffer.from(await book.xlsx.writeBuffer())
    const followUp = await plan({
      kind: 'bytes',
      name: 'rows to fix.xlsx',
      base64: fixed.toString('base64'),
    })
    expect(followUp.validation.valid).toBe(true)
    expect(followUp.rowCount).toBe(3)
    expect(followUp.followsSetAsideOf).toBe(sent.runId)
    expect(followUp.retryOfRunId).toBe(sent.runId)
    expect(followUp.duplicateOf).toBeNull()
    const second = await service.handlers.confirmSubmission(
      { environment: 'Local', planId: followUp.planId, confirmed: true },
      http,
    )
    expect(second.runId).toBeTruthy()
    expect(second.runId).not.toBe(sent.runId)
    const after = await service.handlers.listHistory({}, http)
    expect(after.items.find((i) => i.runId === second.runId)?.retryOfRunId).toBe(sent.runId)
    // Journaled as a follow-up, told apart from a retry, and listed right under its run.
    const followEntry = after.items.find((i) => i.runId === second.runId)
    expect(followEntry?.followUpOfRunId).toBe(sent.runId)
    const firstEntry = after.items.find((i) => i.runId === sent.runId)
    expect(firstEntry?.followUps).toEqual([second.runId])
    expect(firstEntry?.retries).toEqual([])
    expect(after.items.indexOf(followEntry!)).toBe(after.items.indexOf(firstEntry!) + 1)
    // The run pages link the two as a follow-up, not as rows sent again.
    const ref = (runId: string) => ({ environment: 'Local', runId })
    const firstPage = await service.handlers.getRunOverview(ref(sent.runId!), http)
    expect(firstPage).toMatchObject({ retriedBy: [], followUps: [second.runId] })
    const followPage = await service.handlers.getRunOverview(ref(second.runId!), http)
    expect(followPage).toMatchObject({ retryOfRunId: '', followUpOfRunId: sent.runId })

    await expect(
      service.handlers.saveSetAsideRows({ environment: 'Local', runId: second.runId! }, http),
    ).rejects.toThrow(/No rows were set aside/)
  })
})
