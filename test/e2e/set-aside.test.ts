// Sending the valid rows of a sheet with a few bad ones, in headless Chromium through browser
// mode: 50 rows with 3 bad offer "Send 47 valid rows and set 3 aside to fix", which leads to the
// usual confirmation priced for 47; once sent, History counts the 3 with the run and downloads
// them as a workbook to fix.
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { describeInChromium, useE2eApp } from './harness'
import { downloadFrom, readWorkbook, writeSheet } from './input-workbook'
import {
  screenshotAtBothSizes,
  screenshotBothThemes,
  seriousA11yViolations,
  showScreen,
} from './screens'
import { chooseWorkbook, newRowEchoRun, shownRunId } from './steps'

const BAD = [7, 20, 41]

/** 50 rows of the template's own columns; rows 7, 20 and 41 have no number in Sequence. */
const sheetWithBadRows = (path: string) =>
  writeSheet(path, 'Input', [['Message', 'Sequence number']], 50, (i) => [
    `Hello ${i}`,
    BAD.includes(i) ? 'n/a' : i,
  ])

describeInChromium('Set-aside', 'set the rows with problems aside, in headless Chromium', () => {
  const { app, page } = useE2eApp({
    homePrefix: 'skill-runner-e2e-aside-',
    taskMs: 100,
  })

  it('sends the 47 valid rows after the usual confirmation and hands the 3 others back to fix', async () => {
    const input = await sheetWithBadRows(join(app.home, 'fifty.xlsx'))
    await newRowEchoRun(page, app.mode.url, input)

    const offer = page.getByRole('button', { name: 'Send 47 valid rows and set 3 aside to fix…' })
    await offer.waitFor()
    expect(await page.getByRole('button', { name: 'Review the cost and send…' }).isDisabled()).toBe(
      true,
    )
    await page.getByRole('heading', { name: '4. Send' }).scrollIntoViewIfNeeded()
    await screenshotBothThemes(page, 'aside-01-offer')
    expect(await seriousA11yViolations(page)).toEqual([])

    await offer.click()
    const dialog = page.getByRole('dialog')
    await dialog.getByText('Send 47 valid rows and set 3 aside?').waitFor()
    await dialog
      .getByText(/3 rows with problems set aside to fix, not sent and not counted/)
      .waitFor()
    await screenshotBothThemes(page, 'aside-02-confirm')
    const send = dialog.getByRole('button', { name: /^Send/ }).last()
    expect(await send.isDisabled()).toBe(true)
    await dialog.getByRole('checkbox', { name: /I agree to pay/ }).check()
    expect(await send.isDisabled()).toBe(false)
    await send.click()

    await shownRunId(page)
    await showScreen(page, 'History')
    const entry = page.locator('.history-table tbody tr', { hasText: '3 set aside to fix' })
    await entry.waitFor()
    expect(await entry.textContent()).toContain('47 rows')
    await screenshotBothThemes(page, 'aside-03-history')
    expect(await seriousA11yViolations(page)).toEqual([])

    const openRows = entry.getByRole('button', { name: 'Open the 3 rows to fix' })
    const saved = await downloadFrom(page, openRows, app.home, 'to-fix.xlsx')
    const book = await readWorkbook(saved)
    const sheet = book.getWorksheet('To fix')!
    expect(sheet.rowCount).toBe(4)
    expect(sheet.getCell('A2').value).toBe('Hello 7')
    // Behind the Problem column, hidden, the row each came from in the user's sheet.
    expect(sheet.getColumn(4).hidden).toBe(true)
    expect([2, 3, 4].map((r) => sheet.getCell(r, 4).value)).toEqual(BAD.map((i) => i + 1))

    await page.setViewportSize({ width: 860, height: 700 })
    await screenshotBothThemes(page, 'aside-04-history-narrow')

    // Fixed and dropped again, the 3 rows are sent as the first run's follow-up.
    for (const r of [2, 3, 4]) sheet.getCell(r, 2).value = r
    await book.xlsx.writeFile(saved)
    await showScreen(page, 'New run')
    await chooseWorkbook(page, saved)
    await page.getByText('3 rows, no problems: ready to send.').waitFor()
    // Its rows as the check shows them: the user's columns.
    await screenshotAtBothSizes(page, 'aside-05-fixed-dropped', {
      restore: { width: 860, height: 700 },
      eachSize: () => page.getByRole('heading', { name: '4. Send' }).scrollIntoViewIfNeeded(),
    })
    await page.getByRole('button', { name: 'Review the cost and send…' }).click()
    await dialog.getByText('Send 3 fixed rows?').waitFor()
    await dialog.getByText(/3 fixed rows set aside from an earlier run/).waitFor()
    await screenshotBothThemes(page, 'aside-06-follow-up-narrow')
    await dialog.getByRole('checkbox', { name: /I agree to pay/ }).check()
    await dialog.getByRole('button', { name: /^Send/ }).last().click()
    await shownRunId(page)
  })
})
