// Leaving before anything is sent costs nothing: uploads and "Working out the cost…" each have a
// Cancel that really stops them. The built-in Sandbox holds the requests (injectFault's holdMs),
// so Cancel is pressed while the upload's body is on the wire and while the plan waits for the
// template's schema. Headless Chromium through browser mode, the real engine and web server.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { BUILTIN_SANDBOX } from '../../src/core/environments/environments'
import type { Sandbox } from '../../src/sandbox'
import { paths } from '../../src/shared/contract'
import { describeInChromium, useE2eApp } from './harness'
import { chooseWorkbook, pickTemplate } from './steps'
import { filledInputWorkbook } from './input-workbook'
import { screenshotBothThemes, seriousA11yViolations } from './screens'

/** Long enough that only Cancel ends the wait; the held request is abandoned by the client. */
const HOLD_MS = 20_000

describeInChromium('Cancel-before-send', 'cancel what has not started', () => {
  let sandbox: Sandbox | undefined

  const { app, page } = useE2eApp({
    homePrefix: 'skill-runner-e2e-cancel-',
    taskMs: 50,
    builtInSandbox: (started) => {
      sandbox = started
    },
  })

  async function filledDigestWorkbook(): Promise<{ workbook: string; folder: string }> {
    const workbook = await filledInputWorkbook(page, app.home, 'digest', [
      ['big-a.txt', 'First'],
      ['big-b.txt', 'Second'],
    ])
    const folder = join(app.home, 'files')
    mkdirSync(folder, { recursive: true })
    // Big enough that the body cannot all leave while the service does not read it.
    writeFileSync(join(folder, 'big-a.txt'), 'a'.repeat(4 * 1024 * 1024))
    writeFileSync(join(folder, 'big-b.txt'), 'b'.repeat(4 * 1024 * 1024))
    return { workbook, folder }
  }

  it('stops an upload mid-transfer and working out the cost, and nothing is sent', async () => {
    await page.goto(app.mode.url)
    await pickTemplate(page, 'Document digest')
    const { workbook, folder } = await filledDigestWorkbook()
    await chooseWorkbook(page, workbook)
    await page.getByText('2 rows, no problems: ready to send.').waitFor()
    await page.getByLabel('Choose the folder with the files').setInputFiles(folder)
    await page.getByText('2 found · 0 not found').waitFor()

    // Upload: both requests are held by the service while their bodies are being sent.
    sandbox!.injectFault({ method: 'POST', path: paths.upload(), holdMs: HOLD_MS, times: 2 })
    await page.getByRole('button', { name: 'Upload the files' }).click()
    const list = page.locator('.upload-list')
    await list.getByText('Uploading', { exact: true }).first().waitFor()
    const cancelUpload = page.locator('.uploads').getByRole('button', { name: 'Cancel' })
    await cancelUpload.scrollIntoViewIfNeeded()
    await screenshotBothThemes(page, 'cancel-01-uploading')
    await cancelUpload.click()

    await page
      .getByText(/Upload stopped\. Files that had not finished are not on the service/)
      .waitFor()
    const upload = page.getByRole('button', { name: 'Upload the files' })
    expect(await upload.isEnabled()).toBe(true)
    expect(await upload.evaluate((b) => b === document.activeElement)).toBe(true)
    expect(await list.getByText('Waiting', { exact: true }).count()).toBe(2)
    expect(await cancelUpload.count()).toBe(0)
    await screenshotBothThemes(page, 'cancel-02-upload-stopped')
    expect(await seriousA11yViolations(page)).toEqual([])

    // Nothing cut off was kept: uploading again sends both files afresh.
    await upload.click()
    await list.getByText('Uploaded', { exact: true }).nth(1).waitFor()
    expect(await list.getByText('Already on the service').count()).toBe(0)
    await page.getByText('Every file is uploaded').waitFor()

    // Working out the cost: the plan waits for the template's schema, and is stopped.
    sandbox!.injectFault({
      method: 'GET',
      path: paths.templateSchema('document-digest'),
      holdMs: HOLD_MS,
    })
    const review = page.getByRole('button', { name: 'Review the cost and send…' })
    await review.click()
    const working = page.getByRole('button', { name: 'Working out the cost…' })
    await working.waitFor()
    const cancelPlan = page
      .locator('section[aria-labelledby="send-title"]')
      .getByRole('button', { name: 'Cancel' })
    await cancelPlan.scrollIntoViewIfNeeded()
    await screenshotBothThemes(page, 'cancel-03-working-out-cost')
    await page.setViewportSize({ width: 860, height: 700 })
    await cancelPlan.scrollIntoViewIfNeeded()
    await screenshotBothThemes(page, 'cancel-03-working-out-cost-860')
    await page.setViewportSize({ width: 1280, height: 800 })
    await cancelPlan.click()

    await page
      .getByText('Stopped working out the cost. Nothing was sent and nothing was charged.')
      .waitFor()
    expect(await review.isEnabled()).toBe(true)
    expect(await review.evaluate((b) => b === document.activeElement)).toBe(true)
    expect(await page.getByRole('dialog').count()).toBe(0)
    await screenshotBothThemes(page, 'cancel-04-plan-stopped')
    expect(await seriousA11yViolations(page)).toEqual([])

    // Asked again, the cost comes (the hold was used up), and still nothing has been sent.
    await review.click()
    const dialog = page.getByRole('dialog')
    await dialog.getByText('Send 2 rows to Document digest?').waitFor()
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    const connection = await app.engine.connect({ env: BUILTIN_SANDBOX })
    expect((await connection.client.listRuns()).items).toEqual([])
  })
})
