// Issue 30's journey on the command line: a buyer's own 20-row sheet (a title row, renamed
// headers, an extra column, 2 bad rows, one row the service fails) goes through several paths as
// one batch: a pilot of 3 valid rows with the bad ones set aside, the rest (15 rows, with the
// confirmed mapping), the set-aside rows fixed and sent back under their own sheet rows, the
// failed row fixed and sent again, then retry-failed finds nothing left to pay for. `batch show`
// follows every sheet row across the runs, and "all rows" again names the rows paid before.
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { useCliOnSandbox } from '../helpers/cli'

/** Sheet rows: title (1), blank (2), header (3), data 4 to 23. */
const FIRST = 4
const BAD = [7, 16]
const FAILS = 12
const MAP = 'Text=message,Seq=sequence,Long notes=details,Owner='

async function writeSheet(path: string) {
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('Export')
  sheet.addRow(['Exported from the shop, March'])
  sheet.addRow([])
  sheet.addRow(['Text', 'Seq', 'Long notes', 'Owner'])
  for (let r = FIRST; r < FIRST + 20; r += 1)
    sheet.addRow([
      r === FAILS ? `Hello ${r} [[fail]]` : `Hello ${r}`,
      BAD.includes(r) ? 'n/a' : r,
      `Note ${r}`,
      `ann${r}`,
    ])
  await book.xlsx.writeFile(path)
}

interface BatchJson {
  summary: string
  rows: { sheetRow: number; state: string; runId?: string; sentAgain?: boolean }[]
  counts: Record<string, number>
  runs: { runId: string; kind: string; rows: number }[]
}

describe('one sheet, one batch, on the command line', () => {
  const { cli, home } = useCliOnSandbox('sr-cli-batch-')

  it('pilot with rows set aside, the rest, the fixed rows back, a fixed retry, and nothing paid twice', async () => {
    const sheet = join(home, 'march.xlsx')
    await writeSheet(sheet)
    const send = ['--template', 'row-echo', '--yes', '--json']

    // A pilot of the first 3 valid rows, the 2 bad rows set aside.
    const pilot = await cli([
      'run',
      sheet,
      ...send,
      '--map',
      MAP,
      '--skip-invalid',
      '--rows',
      '4-6',
      '--watch',
    ])
    expect(pilot.code, pilot.stderr).toBe(0)
    const pilotRun = JSON.parse(pilot.stdout).run.runId as string
    expect(JSON.parse(pilot.stdout).run.totalTasks).toBe(3)

    // "All rows" of the same sheet again names the 3 rows the pilot paid for, and sends nothing.
    const all = await cli(['run', sheet, ...send, '--skip-invalid'])
    expect(all.code).toBe(1)
    expect(all.stderr).toMatch(/3 of these 18 rows were sent in an earlier run and succeeded/)
    expect(all.stderr).toContain(`--rest-of ${pilotRun}`)

    // The rest: the 15 valid rows the pilot did not send, read with the confirmed mapping.
    const rest = await cli(['run', '--rest-of', pilotRun, ...send.slice(2), '--watch'])
    expect(rest.code, rest.stderr).toBe(1) // one row failed on purpose
    const restRun = JSON.parse(rest.stdout).run.runId as string
    expect(JSON.parse(rest.stdout).run.totalTasks).toBe(15)

    let batch = JSON.parse((await cli(['batch', 'show', pilotRun, '--json'])).stdout) as BatchJson
    expect(batch.counts).toMatchObject({
      rows: 20,
      setAside: 2,
      failed: 1,
      succeeded: 17,
      notSent: 0,
    })
    expect(batch.rows.find((r) => r.sheetRow === FAILS)).toMatchObject({
      state: 'failed',
      runId: restRun,
    })
    expect(batch.rows.filter((r) => r.state === 'set-aside').map((r) => r.sheetRow)).toEqual(BAD)
    // Nothing left for a second rest.
    const noRest = await cli(['run', '--rest-of', pilotRun, ...send.slice(2)])
    expect(noRest.code).toBe(1)
    expect(noRest.stderr).toMatch(/Nothing is left to send/)

    // The set-aside rows fixed in their workbook come back as the follow-up, under sheet rows 7 and 16.
    const asidePath = join(home, 'march (set aside).xlsx')
    const book = new ExcelJS.Workbook()
    await book.xlsx.readFile(asidePath)
    const toFix = book.getWorksheet('To fix')!
    toFix.getCell(2, 2).value = 70
    toFix.getCell(3, 2).value = 160
    await book.xlsx.writeFile(asidePath)
    const followUp = await cli(['run', asidePath, ...send, '--watch'])
    expect(followUp.code, followUp.stderr).toBe(0)
    const watchRun = JSON.parse(followUp.stdout).run.runId as string

    // The failed row, fixed in a copy of the sheet, is sent again and succeeds.
    const fixed = join(home, 'march fixed.xlsx')
    copyFileSync(sheet, fixed)
    const fixBook = new ExcelJS.Workbook()
    await fixBook.xlsx.readFile(fixed)
    fixBook.getWorksheet('Export')!.getCell(FAILS, 1).value = `Hello ${FAILS}`
    await fixBook.xlsx.writeFile(fixed)
    const retry = await cli([
      'runs',
      'retry-failed',
      restRun,
      '--from',
      fixed,
      ...send.slice(2),
      '--watch',
    ])
    expect(retry.code, retry.stderr).toBe(0)

    // The row is not paid for a third time: nothing is left to retry.
    const again = await cli(['runs', 'retry-failed', restRun, '--yes'])
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/no failed row of run .* is left to retry/)
    expect(again.stderr).toMatch(/[Rr]ow 12 was sent again in a later run and succeeded/)

    batch = JSON.parse((await cli(['batch', 'show', sheet, '--json'])).stdout) as BatchJson
    expect(batch.counts).toMatchObject({
      rows: 20,
      succeeded: 20,
      failed: 0,
      setAside: 0,
      sentAgain: 1,
    })
    expect(batch.summary).toBe('20 rows: 19 succeeded, 1 failed, then was sent again and succeeded')
    expect(batch.rows.filter((r) => r.runId === watchRun).map((r) => r.sheetRow)).toEqual(BAD)
    expect(batch.runs.map((r) => r.kind)).toEqual(['valid', 'rest', 'follow-up', 'retry'])
    const shown = await cli(['batch', 'show', pilotRun])
    expect(shown.stdout).toContain('20 rows: 19 succeeded')
  })
})
