// A workbook of several sheets dropped on the New run screen (issue #23, item 5): two sheets fit
// the template equally, so the panel asks which; the one chosen is checked, and what the reader
// read past (a hidden row, a total row, empty rows) is said there, not sent. Headless Chromium
// through browser mode, the real engine with the built-in Sandbox, the built renderer.
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { expect, it } from 'vitest'
import { describeInChromium, useE2eApp } from './harness'
import { chooseWorkbook } from './steps'
import { screenshotBothThemes, seriousA11yViolations } from './screens'

describeInChromium('Sheets', 'a workbook of several sheets', () => {
  const { app, page } = useE2eApp({
    homePrefix: 'skill-runner-e2e-sheets-',
    taskMs: 100,
  })

  it('asks which sheet, then says what was read past', { timeout: 120_000 }, async () => {
    const book = new ExcelJS.Workbook()
    const header = ['Message', 'Sequence number']
    book.addWorksheet('Monday').addRows([header, ['hello', 1]])
    const tuesday = book.addWorksheet('Tuesday')
    tuesday.addRows([header, ['first', 1], [], ['old', 9], ['second', 2], ['Total', 3]])
    tuesday.getRow(4).hidden = true
    const path = join(app.home, 'week.xlsx')
    await book.xlsx.writeFile(path)

    await page.goto(app.mode.url)
    await page.getByRole('radio', { name: /Row echo/ }).check()
    await chooseWorkbook(page, path)
    const choice = page.getByLabel('Which sheet holds the rows to send?')
    await choice.waitFor()
    await page.getByText(/“Monday” and “Tuesday” fit the template's columns equally well/).waitFor()
    const panel = page.getByRole('heading', { name: '3. Your filled workbook' })
    await panel.scrollIntoViewIfNeeded()
    await screenshotBothThemes(page, 'prepare-sheets-01-choose')
    expect(await seriousA11yViolations(page)).toEqual([])

    await choice.selectOption('Tuesday')
    await page.getByText('2 rows, no problems: ready to send.').waitFor()
    await page.getByText(/sheet “Tuesday”/).waitFor()
    const notices = page.getByRole('list', { name: 'About how the workbook was read' })
    await expect(notices.getByRole('listitem').allTextContents()).resolves.toEqual([
      'Row 4 is hidden in the sheet, so it is not sent. Unhide it to send it.',
      'Row 6 is a total (“Total”), not a row to send: it is not sent.',
      '1 empty row skipped.',
    ])
    expect(await choice.count()).toBe(0)
    await panel.scrollIntoViewIfNeeded()
    await screenshotBothThemes(page, 'prepare-sheets-02-read')
    await page.setViewportSize({ width: 860, height: 700 })
    await panel.scrollIntoViewIfNeeded()
    await screenshotBothThemes(page, 'prepare-sheets-03-narrow')
    expect(await seriousA11yViolations(page)).toEqual([])
  })
})
