// execute with a column mapping and with --skip-invalid, as a buyer of a listing on the sandbox:
// the service is sent the listing's own headers holding the rows the user confirmed.
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { useBuyerOnCli } from '../helpers/cli'
import { LISTING_ARGS as listing } from '../helpers/buyer-seed'

const { home, cli, runCount } = useBuyerOnCli('sr-cli-listing-map-')

/** The buyer's own sheet: renamed headers, an extra column; `words` per row. */
async function ownSheet(name: string, words: (number | string)[]): Promise<string> {
  const path = join(home, name)
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('Ads')
  sheet.addRow(['Item', 'Voice', 'Word count', 'Owner'])
  words.forEach((w, i) => sheet.addRow([`Lamp ${i + 1}`, 'friendly', w, 'bea']))
  await book.xlsx.writeFile(path)
  return path
}

describe('execute with a mapping', () => {
  it('stops with the proposal, then executes with --map, and remembers it', async () => {
    const sheet = await ownSheet('ads.xlsx', [50, 60])
    const before = await runCount()
    const stopped = await cli(['execute', sheet, ...listing, '--yes', '--json'])
    expect(stopped.code).toBe(1)
    expect(stopped.stderr).toMatch(/--map "Item=product,Voice=tone,Word count=words,Owner="/)
    expect(await runCount()).toBe(before)

    const map = 'Item=product,Voice=tone,Word count=words,Owner='
    const sent = await cli(['execute', sheet, ...listing, '--yes', '--json', '--map', map])
    expect(sent.code, sent.stderr).toBe(0)
    expect(await runCount()).toBe(before + 1)

    const again = await ownSheet('ads-2.xlsx', [70])
    const remembered = await cli(['execute', again, ...listing, '--yes', '--json'])
    expect(remembered.code, remembered.stderr).toBe(0)
    expect(remembered.stderr).toMatch(/using the column mapping remembered/)
  })

  it('--skip-invalid sends only the valid rows and sets the rest aside', async () => {
    const sheet = await ownSheet('ads-bad.xlsx', [50, 'lots', 60])
    const before = await runCount()
    const sent = await cli(['execute', sheet, ...listing, '--yes', '--json', '--skip-invalid'])
    expect(sent.code, sent.stderr).toBe(0)
    expect(JSON.parse(sent.stdout).setAside).toEqual({
      path: join(home, 'ads-bad (set aside).xlsx'),
      rows: 1,
    })
    expect(await runCount()).toBe(before + 1)
  })
})
