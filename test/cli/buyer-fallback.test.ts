// A service without the buyer's read of a listing (it answers 404 to GET marketListings/{id}, as
// the interface alone would): the engine falls back as DESIGN.md orders (the buyer's own creator
// listing, then the hidden sheet of a workbook made for the listing, then the headers), says the
// fee is unknown, refuses a cap it cannot check, and learns the cost per row from a pilot.
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { beforeAll, expect, it } from 'vitest'
import { paths } from '../../src/shared/contract'
import { useBuyerOnCli } from '../helpers/cli'
import {
  LISTING_ARGS as listing,
  LISTING_FEE,
  LISTING_ID,
  writeBuyerWorkbook,
} from '../helpers/buyer-seed'

const { sandbox, home, cli, runCount } = useBuyerOnCli('sr-cli-fallback-')

beforeAll(async () => {
  // A workbook made while the service still showed the listing (e.g. shared by its creator).
  const fresh = await cli(['templates', 'workbook', '--listing', LISTING_ID, '-o', made()])
  expect(fresh.code, fresh.stderr).toBe(0)
})

const made = () => join(home, 'made.xlsx')
const hideBuyerView = () =>
  sandbox.injectFault({
    method: 'GET',
    path: paths.marketListing(LISTING_ID),
    status: 404,
    times: 1000,
  })

it('falls back to the headers, refuses an uncheckable cap, and prices the rest from a pilot', async () => {
  hideBuyerView()
  const file = join(home, 'typed.xlsx')
  await writeBuyerWorkbook(file, [
    ['Kettle', 'friendly', 20],
    ['Lamp', 'formal', 30],
    ['Desk', 'friendly', 40],
  ])
  const before = await runCount()
  const capped = await cli(['execute', file, ...listing, '--yes', '--max-cost', '100'])
  expect(capped.code).toBe(1)
  expect(capped.stderr).toMatch(/does not show this listing’s fee/)
  expect(capped.stderr).toMatch(/columns matched by their headers/)
  expect(capped.stderr).toMatch(/spending cap of 100 credits cannot be checked/)
  expect(await runCount()).toBe(before)

  const pilot = await cli([
    'execute',
    file,
    ...listing,
    '--yes',
    '--pilot',
    '1',
    '--watch',
    '--json',
  ])
  expect(pilot.code, pilot.stderr).toBe(0)
  expect(JSON.parse(pilot.stdout).run.actualCostT).toBe(LISTING_FEE)
  expect(pilot.stderr).toContain(
    `The pilot cost ${LISTING_FEE} credits for 1 succeeded row; the other 2 rows would cost about ${2 * LISTING_FEE} credits (estimate from the pilot). Send them with --rows 3-, or as one batch with the pilot: skill-runner run --rest-of ${JSON.parse(pilot.stdout).run.runId}`,
  )

  // The rest, under a cap the pilot made checkable.
  const rest = await cli([
    'execute',
    file,
    ...listing,
    '--yes',
    '--rows',
    '3-',
    '--max-cost',
    String(2 * LISTING_FEE),
    '--json',
  ])
  expect(rest.code, rest.stderr).toBe(0)
  expect(rest.stderr).toMatch(new RegExp(`About ${2 * LISTING_FEE} credits \\(estimate from run`))
  expect(await runCount()).toBe(before + 2)
}, 60_000)

it('reads the columns of a workbook generated for the listing from its hidden sheet', async () => {
  const book = new ExcelJS.Workbook()
  await book.xlsx.readFile(made())
  const input = book.getWorksheet('Input')!
  input.getRow(2).values = ['Teapot', 'formal', 12]
  input.getRow(2).commit()
  await book.xlsx.writeFile(made())

  hideBuyerView()
  const done = await cli(['execute', made(), ...listing, '--yes', '--json'])
  expect(done.code, done.stderr).toBe(0)
  expect(done.stderr).toMatch(/columns from the workbook generated for it/)
  const result = JSON.parse(done.stdout)
  expect(result.listingId).toBe(LISTING_ID)
})

it('types the cells of a generated workbook by the schema its hidden sheet carries', async () => {
  const file = join(home, 'typed-by-sheet.xlsx')
  const book = new ExcelJS.Workbook()
  await book.xlsx.readFile(made())
  const input = book.getWorksheet('Input')!
  // Words typed as text: sent as a whole number only when the client knows the field's type.
  input.getRow(2).values = ['Teacup', 'formal', '12']
  input.getRow(2).commit()
  await book.xlsx.writeFile(file)

  hideBuyerView()
  const before = await runCount()
  const done = await cli(['execute', file, ...listing, '--yes', '--json'])
  expect(done.code, done.stderr).toBe(0)
  expect(done.stderr).toMatch(/columns from the workbook generated for it/)
  expect(await runCount()).toBe(before + 1)
})
