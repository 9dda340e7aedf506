// A workbook whose rows name files, sent from a browser: the page cannot read the workbook's
// folder, so the user drops that folder, uploads its files, and sends through the normal
// confirmation. Headless Chromium through browser mode, the real engine with the built-in
// Sandbox's document-digest template, the real web server and the built renderer.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { describeInChromium, useE2eApp } from './harness'
import { chooseWorkbook, openNewRun, pickTemplate } from './steps'
import { filledInputWorkbook } from './input-workbook'
import { screenshotBothThemes, seriousA11yViolations } from './screens'

describeInChromium('File-cells', 'file cells sent from a browser', () => {
  const { app, page } = useE2eApp({
    homePrefix: 'skill-runner-e2e-files-',
    taskMs: 100,
    context: { viewport: { width: 1280, height: 900 } },
  })

  it('document-digest: workbook and its folder dropped, files uploaded, confirmed, run ends', async () => {
    await openNewRun(page, app.mode.url)
    await pickTemplate(page, 'Document digest')

    const filled = await filledInputWorkbook(page, app.home, 'digest', [
      ['docs/report.txt', 'Report'],
      ['notes.txt', 'Notes'],
    ])
    const folder = join(app.home, 'shoot')
    mkdirSync(join(folder, 'docs'), { recursive: true })
    writeFileSync(join(folder, 'docs', 'report.txt'), 'Quarterly figures.\n')
    writeFileSync(join(folder, 'notes.txt'), 'Meeting notes.\n')

    await chooseWorkbook(page, filled)
    await page.getByText('2 rows, no problems: ready to send.').waitFor()
    await page.getByText('2 not looked for yet').waitFor()
    await expect(page.getByText(/desktop app/).count()).resolves.toBe(0)

    await page.getByLabel('Choose the folder with the files').setInputFiles(folder)
    await page.getByText('2 found · 0 not found').waitFor()
    await page.getByRole('button', { name: 'Upload the files' }).click()
    await page.locator('.upload-list').getByText('Uploaded').nth(1).waitFor()
    await page.getByText('Every file is uploaded').waitFor()
    expect(await page.getByRole('button', { name: 'Upload the files' }).isDisabled()).toBe(true)
    await page
      .getByRole('heading', { name: 'Files named in the workbook' })
      .scrollIntoViewIfNeeded()
    await screenshotBothThemes(page, 'prepare-files-01-uploaded')
    expect(await seriousA11yViolations(page)).toEqual([])

    await page.getByRole('button', { name: 'Review the cost and send…' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByText('Send 2 rows to Document digest?').waitFor()
    await dialog.getByRole('checkbox', { name: /I agree to pay/ }).check()
    await dialog.getByRole('button', { name: /^Send/ }).click()

    const detail = page.locator('.run-detail')
    // The run's ID is folded under Details on its page.
    await detail.locator('.more-details code', { hasText: /run_/ }).waitFor({ state: 'attached' })
    await page.getByRole('button', { name: /All runs/ }).click()
    const row = page.locator('tr[data-run-id]').first()
    await row.getByText('2 of 2 rows succeeded').waitFor({ timeout: 60_000 })
  })
})
