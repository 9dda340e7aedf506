// `validate` and `run` on a workbook of several sheets (issue #23, item 5): the sheet whose
// headers fit is read and named on stderr, a tie is an error that names --sheet, and what the
// reader read past (hidden rows, a total row, empty rows) is said on stderr, not sent.
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { useCliOnSandbox } from '../helpers/cli'

const { home, cli } = useCliOnSandbox('sr-cli-sheets-')

async function book(name: string, sheets: Record<string, ExcelJS.CellValue[][]>, hide = 0) {
  const wb = new ExcelJS.Workbook()
  for (const [sheetName, rows] of Object.entries(sheets)) {
    const ws = wb.addWorksheet(sheetName)
    rows.forEach((values, i) => (ws.getRow(i + 1).values = values))
    if (hide) ws.getRow(hide).hidden = true
  }
  const path = join(home, name)
  await wb.xlsx.writeFile(path)
  return path
}

const header = ['Message', 'Sequence number']

describe('validate and run with several sheets', () => {
  it('a tie exits 1 naming --sheet; --sheet reads the one named', async () => {
    const path = await book('tie.xlsx', {
      Monday: [header, ['hello', 1]],
      Tuesday: [header, ['bye', 2]],
    })
    const tie = await cli(['validate', path, '--template', 'row-echo', '--json'])
    expect(tie.code).toBe(1)
    expect(JSON.parse(tie.stdout).fileErrors).toEqual([
      "The sheets “Monday” and “Tuesday” fit the template's columns equally well. Choose the sheet that holds the rows to send.",
    ])
    expect(tie.stderr).toContain(
      'choose the sheet with --sheet: --sheet "Monday" or --sheet "Tuesday"',
    )
    const chosen = await cli(['validate', path, '--template', 'row-echo', '--sheet', 'Tuesday'])
    expect(chosen.code).toBe(0)
  })

  it('says on stderr which sheet was read, and the hidden, total and empty rows', async () => {
    const path = await book(
      'shape.xlsx',
      {
        Notes: [['Read me first']],
        Orders: [header, ['hello', 1], [], ['old', 9], ['bye', 2], ['Total', 12]],
      },
      4,
    )
    const result = await cli(['validate', path, '--template', 'row-echo', '--json'])
    expect(result.code).toBe(0)
    expect(result.stderr).toContain(
      "Read the sheet “Orders”: of the workbook's 2 sheets, its headers fit the template best.",
    )
    expect(result.stderr).toContain('Row 4 is hidden in the sheet, so it is not sent.')
    expect(result.stderr).toContain('Row 6 is a total (“Total”), not a row to send')
    expect(result.stderr).toContain('1 empty row skipped.')
    const run = await cli(['run', path, '--template', 'row-echo', '--json', '--watch', '--yes'])
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout).run.totalTasks).toBe(2)
    expect(run.stderr).toContain('Row 4 is hidden in the sheet, so it is not sent.')
  })
})
