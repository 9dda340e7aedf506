// Issue 19's journey on the command line, in one flow against the sandbox: a buyer's own 50-row
// sheet (a title row, renamed headers, 3 bad rows) stops with the mapping proposed; sent with
// --map and --skip-invalid, its 47 valid rows go and the 3 others are set aside; fixed there,
// that workbook maps by itself (the remembered mapping) and goes as the first run's follow-up,
// which history --json tells apart; the same sheet again maps by itself (and, sent already, is
// answered with the first run). For a template and for
// a listing the buyer does not own.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { paths, type RunDetail } from '../../src/shared/contract'
import { BUYER_TOKEN, LISTING_ARGS, LISTING_FEE, buyerSeed } from '../helpers/buyer-seed'
import { runCliOn, type CliResult } from '../helpers/cli'
import { call, useTestSandbox, type TestSandbox } from '../helpers/sandbox'

const BAD = [7, 20, 41]
const TEAM_TOKEN = 'tok-cli-own-sheet'

interface Journey {
  sandbox: TestSandbox
  token: string
  /** `run` for a template, `execute` for a listing. */
  command: string
  target: string[]
  headers: string[]
  map: string
  row: (i: number, bad: boolean) => (string | number)[]
  /** The column of the bad cells (1-based), and a good value for set-aside row `r`. */
  fix: { column: number; value: (r: number) => number }
}

async function writeSheet(path: string, journey: Journey) {
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('Export')
  sheet.addRow(['Exported from the shop, March'])
  sheet.addRow([])
  sheet.addRow(journey.headers)
  for (let i = 1; i <= 50; i += 1) sheet.addRow(journey.row(i, BAD.includes(i)))
  await book.xlsx.writeFile(path)
}

async function walk(journey: Journey) {
  const home = mkdtempSync(join(tmpdir(), 'sr-cli-own-sheet-'))
  const service = { baseUrl: journey.sandbox.url, token: journey.token, home }
  const cli = (args: string[]): Promise<CliResult> => runCliOn(service, args)
  const tasksOf = async (runId: string) =>
    (await call<RunDetail>(journey.sandbox, paths.run(runId), { token: journey.token })).body.run
      .totalTasks
  const send = [...journey.target, '--yes', '--json']
  const sheet = join(home, 'march.xlsx')
  await writeSheet(sheet, journey)

  // Without a mapping: the proposal and how to confirm it; nothing is sent.
  const stopped = await cli([journey.command, sheet, ...send])
  expect(stopped.code).toBe(1)
  expect(stopped.stderr).toContain(`--map "${journey.map}"`)

  // --map and --skip-invalid in one go: 47 sent, 3 set aside beside the sheet.
  const sent = await cli([journey.command, sheet, ...send, '--map', journey.map, '--skip-invalid'])
  expect(sent.code, sent.stderr).toBe(0)
  const answer = JSON.parse(sent.stdout)
  const asidePath = join(home, 'march (set aside).xlsx')
  expect(answer.setAside).toEqual({ path: asidePath, rows: 3 })
  expect(sent.stderr).toMatch(/planning the 47 valid rows/)
  expect(await tasksOf(answer.runId)).toBe(47)

  // Fixed in the set-aside workbook, whose headers map by themselves: the first run's follow-up.
  const book = new ExcelJS.Workbook()
  await book.xlsx.readFile(asidePath)
  const toFix = book.getWorksheet('To fix')!
  for (const r of [2, 3, 4]) toFix.getCell(r, journey.fix.column).value = journey.fix.value(r)
  await book.xlsx.writeFile(asidePath)
  const followUp = await cli([journey.command, asidePath, ...send])
  expect(followUp.code, followUp.stderr).toBe(0)
  expect(followUp.stderr).toMatch(/using the column mapping remembered for these headers/)
  expect(followUp.stderr).toContain(`set aside from run ${answer.runId}`)
  const watchRun = JSON.parse(followUp.stdout).runId
  expect(await tasksOf(watchRun)).toBe(3)

  const history = JSON.parse((await cli(['history', '--json'])).stdout)
  const item = history.items.find((i: { runId: string }) => i.runId === watchRun)
  expect(item).toMatchObject({ followUpOfRunId: answer.runId, rowCount: 3 })
  const first = history.items.find((i: { runId: string }) => i.runId === answer.runId)
  expect(first).toMatchObject({ followUpOfRunId: '', rowCount: 47 })

  // The same sheet again maps by itself; its 47 valid rows were sent already, so the earlier
  // run is the answer and nothing new is sent (the duplicate guard, unless --again).
  const again = await cli([journey.command, sheet, ...send, '--skip-invalid'])
  expect(again.code, again.stderr).toBe(0)
  expect(again.stderr).toMatch(/using the column mapping remembered for these headers/)
  expect(JSON.parse(again.stdout).runId).toBe(answer.runId)
  return { answer, sent }
}

describe('a buyer’s own sheet on the command line', () => {
  const team = useTestSandbox({ tokens: [TEAM_TOKEN] })
  const market = useTestSandbox({ seed: buyerSeed, tokens: [BUYER_TOKEN] })

  it('a template: --map with --skip-invalid, then the follow-up and the sheet remembered', async () => {
    await walk({
      sandbox: team,
      token: TEAM_TOKEN,
      command: 'run',
      target: ['--template', 'row-echo'],
      headers: ['Text', 'Seq', 'Long notes', 'Owner'],
      map: 'Text=message,Seq=sequence,Long notes=details,Owner=',
      row: (i, bad) => [`Hello ${i}`, bad ? 'n/a' : i, `Note ${i}`, `ann${i}`],
      fix: { column: 2, value: (r) => r * 10 },
    })
  })

  it('a listing the buyer does not own: the same with execute, priced for 47', async () => {
    const { sent } = await walk({
      sandbox: market,
      token: BUYER_TOKEN,
      command: 'execute',
      target: LISTING_ARGS,
      headers: ['Item', 'Voice', 'Word count', 'Owner'],
      map: 'Item=product,Voice=tone,Word count=words,Owner=',
      row: (i, bad) => [`Lamp ${i}`, 'friendly', bad ? 'lots' : 10 + i, 'bea'],
      fix: { column: 3, value: (r) => 30 + r },
    })
    expect(sent.stderr).toContain(`47 rows x ${LISTING_FEE} credits per task = ${47 * LISTING_FEE}`)
  })
})
