// A listing's set-aside workbook under the listing's own headers, fixed and sent again with
// execute: nothing mapped or remembered, yet the service is sent a copy, since the workbook's
// Problem and hidden Sheet row columns are no listing's and its check would refuse them.
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { useBuyerOnCli } from '../helpers/cli'
import { LISTING_ARGS as listing, writeBuyerWorkbook } from '../helpers/buyer-seed'
import { readToFixSheet } from '../helpers/set-aside-book'

const { home, cli, runCount } = useBuyerOnCli('sr-cli-listing-aside-')

it('sends the fixed rows of a set-aside workbook as the first run’s follow-up', async () => {
  const sheet = join(home, 'ads.xlsx')
  await writeBuyerWorkbook(sheet, [
    ['Lamp', 'friendly', 10],
    ['Desk', 'loud', 11],
    ['Chair', 'formal', 12],
  ])
  const sent = await cli(['execute', sheet, ...listing, '--yes', '--json', '--skip-invalid'])
  expect(sent.code, sent.stderr).toBe(0)
  const first = JSON.parse(sent.stdout)
  const asidePath = join(home, 'ads (set aside).xlsx')
  expect(first.setAside).toEqual({ path: asidePath, rows: 1 })

  const { book, sheet: toFix } = await readToFixSheet(asidePath, ['Product', 'Tone', 'Words'])
  expect(toFix.getCell('C2').value).toBe(11)
  expect(toFix.getCell('E2').value).toBe(3)
  toFix.getCell('B2').value = 'formal'
  await book.xlsx.writeFile(asidePath)

  const before = await runCount()
  const again = await cli(['execute', asidePath, ...listing, '--yes', '--json'])
  expect(again.stderr).not.toMatch(/not a field/)
  expect(again.code, again.stderr).toBe(0)
  expect(again.stderr).toContain(`set aside from run ${first.runId}`)
  expect(await runCount()).toBe(before + 1)
})
