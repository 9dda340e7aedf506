// After the run, end to end in headless Chromium through browser mode against the built-in
// Sandbox: a run with a failed row submitted from this device is opened, its failed row is seen
// with its spreadsheet row and error, its outputs and its results workbook are saved into the
// test's own outputs folder (set in Settings) and read back, the failed row is retried through
// the confirmation, both runs are found in the history, the creator and template views open,
// and a setting survives a restart. Every screen is shot in light and dark at 1280 and 1024 px
// and checked with axe-core.
import { existsSync, readdirSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import ExcelJS from 'exceljs'
import { expect, it } from 'vitest'
import { runFolderName } from '../../src/core/flows/downloads/downloads'
import { BUILTIN_SANDBOX } from '../../src/core/environments/environments'
import { runEnded } from '../helpers/engine'
import { describeInChromium, useE2eApp } from './harness'
import { agreeAndSendAgain } from './steps'
import {
  SCREENS_DIR,
  screenshotBothThemes,
  seriousA11yViolations,
  showScreen,
  screenshotAtBothSizes,
  drawn,
} from './screens'

describeInChromium('After-run', 'after the run, in the app', () => {
  let outputs: string
  let runId: string
  let retryRunId: string

  /** Screenshots at 1280 and 1024 px, light and dark, and no serious accessibility issue. */
  async function look(name: string) {
    for (const width of [1280, 1024]) {
      // Tall enough to show a whole screen: the app scrolls inside its window, not the page.
      await page.setViewportSize({ width, height: 1500 })
      await drawn(page)
      await screenshotBothThemes(page, `after-run-${name}-${width}`)
    }
    await page.setViewportSize({ width: 1280, height: 860 })
    expect(await seriousA11yViolations(page)).toEqual([])
  }

  /** The runs list, leaving a run detail the Runs screen may still show. */
  async function showRunsList() {
    await showScreen(page, 'Runs')
    const back = page.getByRole('button', { name: '← All runs' })
    if (await back.isVisible()) await back.click()
  }

  async function ended(id: string) {
    return runEnded(await app.engine.connect({ env: BUILTIN_SANDBOX }), id)
  }

  const { app, page } = useE2eApp(
    {
      homePrefix: 'skill-runner-after-run-',
      taskMs: 100,
      // Never the machine's Downloads folder, even before the test sets its own.
      outputsFolder: 'default-outputs',
      context: { viewport: { width: 1280, height: 860 } },
    },
    (started) => {
      outputs = join(started.home, 'outputs of the test')
    },
  )

  it('saves outputs into the folder chosen in Settings', { timeout: 60_000 }, async () => {
    await page.goto(app.mode.url)
    await showScreen(page, 'Settings')
    await page.getByRole('heading', { name: 'Settings' }).waitFor()
    const folder = page.getByLabel('Outputs folder')
    await folder.fill(outputs)
    await page
      .locator('form', { has: folder })
      .getByRole('button', { name: 'Save', exact: true })
      .click()
    await page.locator('form', { has: folder }).getByText('Saved.').waitFor()
    // Saving by hand is what the next steps show; saving on its own has its own step below.
    const keep = page.getByRole('checkbox', { name: /as soon as the run ends/ })
    expect(await keep.isChecked()).toBe(true)
    // A controlled box: it changes once the engine has kept the setting.
    await keep.click()
    await expect.poll(() => app.engine.settings().read().autoSaveOutputs).toBe(false)
    await look('settings')
  })

  it(
    'opens a run with a failed row, previews, saves outputs and the results workbook',
    { timeout: 120_000 },
    async () => {
      // A workbook filled on this device, submitted from it (rows 2 to 4 of the sheet).
      const workbookPath = join(app.home, 'orders.xlsx')
      const book = new ExcelJS.Workbook()
      const sheet = book.addWorksheet('Rows')
      sheet.addRows([['Message'], ['first'], ['oops [[fail]]'], ['third']])
      await book.xlsx.writeFile(workbookPath)
      const connection = await app.engine.connect({ env: BUILTIN_SANDBOX })
      const entry = await app.engine.submissions.journal(connection, {
        target: { kind: 'template', templateId: 'row-echo' },
        rows: [{ message: 'first' }, { message: 'oops [[fail]]' }, { message: 'third' }],
        rowNumbers: [2, 3, 4],
        inputPath: workbookPath,
      })
      runId = (await app.engine.submissions.send(connection, entry)).runId

      await showScreen(page, 'Runs')
      const row = page.locator(`tr[data-run-id="${runId}"]`)
      await row
        .getByText('2 of 3 rows succeeded, 1 failed')
        .waitFor({ timeout: 30_000 })
        .catch(async (e: unknown) => {
          // What the Runs screen showed instead, kept beside the other screenshots.
          const shot = join(SCREENS_DIR, 'after-run-runs-unfinished.png')
          await page.screenshot({ path: shot, fullPage: true })
          throw e
        })
      // Search by the input file finds it; a word in no run finds nothing.
      const search = page.getByLabel('Search runs by name, template or input file')
      await search.fill('orders.xlsx')
      await row.waitFor()
      await search.fill('no-such-run-anywhere')
      await page.getByText('No loaded run matches').waitFor()
      await search.fill('')
      await row.waitFor()
      await look('runs')

      await row.locator('button.run-name').click()
      await page.getByRole('button', { name: '← All runs' }).waitFor()
      const failed = page.locator('.tasks-table tbody tr', { hasText: 'Row 3' })
      await failed.getByText('Failed', { exact: true }).waitFor()
      expect(await failed.textContent()).toMatch(/fail/i)
      await look('run-detail')

      await page.getByRole('button', { name: 'Preview row of Row 2' }).click()
      await page.locator('.preview-text').getByText('"first"').waitFor()
      await look('run-preview')

      await page.getByRole('button', { name: 'Save all outputs' }).click()
      await page.getByText('Saved 2 files').waitFor({ timeout: 30_000 })
      const runFolder = join(outputs, runFolderName(runId))
      await expect.poll(() => page.getByLabel('Outputs saved in').inputValue()).toBe(runFolder)
      const rowFolders = readdirSync(runFolder)
      expect(rowFolders).toHaveLength(2)
      for (const rowFolder of rowFolders)
        expect(readdirSync(join(runFolder, rowFolder))).toHaveLength(1)

      // The saved output previewed is found on disk, its path written out to copy.
      await page.getByRole('button', { name: 'Where is it saved?' }).click()
      const outputPath = await page.getByLabel('This output is saved in').inputValue()
      expect(outputPath.startsWith(runFolder)).toBe(true)
      expect(existsSync(outputPath)).toBe(true)

      await page.getByRole('button', { name: 'Save results workbook' }).click()
      await page.getByText(/Saved the results of 3 rows/).waitFor({ timeout: 30_000 })
      // Named by what ran, the workbook and when: never the run's id.
      const resultsPath = await page.getByLabel('Results workbook').inputValue()
      expect(dirname(resultsPath)).toBe(outputs)
      expect(basename(resultsPath)).toMatch(/^Row echo - .* results\.xlsx$/)
      expect(resultsPath).not.toContain(runId)
      const results = new ExcelJS.Workbook()
      await results.xlsx.readFile(resultsPath)
      const lines = results.getWorksheet('Results')!
      expect(lines.getRow(3).getCell(1).value).toBe(3)
      expect(String(lines.getRow(3).getCell(3).value)).toBe('Failed')
      expect(String(lines.getRow(3).getCell(4).value)).toMatch(/fail/i)

      // A browser cannot open folders: it says where the files are instead.
      await page.getByRole('button', { name: 'Where is it?' }).first().click()
      await page.getByText('A browser cannot open folders').waitFor()
      await look('run-saved')
    },
  )

  /** The dialog as a small and a large window show it, light and dark. */
  async function lookAtDialog(name: string) {
    await screenshotAtBothSizes(page, `after-run-${name}`, {
      restore: { width: 1280, height: 860 },
    })
    expect(await seriousA11yViolations(page)).toEqual([])
  }

  it(
    'fixes the failed row, retries only it after a confirmation, and keeps its new output',
    { timeout: 90_000 },
    async () => {
      await page.getByRole('button', { name: 'Retry failed rows' }).click()
      const fix = page.getByTestId('fix-failed-rows')
      await fix.waitFor()
      const cell = fix.getByLabel('Row 3, Message')
      expect(await cell.inputValue()).toBe('oops [[fail]]')
      await fix.getByText(/contains \[\[fail\]\]/).waitFor()
      const review = fix.getByRole('button', { name: 'Review and send fixed rows' })
      // An empty required cell is refused by the same checks as a workbook's, once it is left.
      await cell.fill('')
      await cell.press('Tab')
      await fix.getByText('Row 3, Message: is required but empty').waitFor()
      expect(await review.isDisabled()).toBe(true)
      await lookAtDialog('retry-fix-problem')
      await cell.fill('oops, fixed')
      expect(await review.isDisabled()).toBe(true)
      await fix.getByRole('button', { name: 'Check' }).click()
      await expect.poll(() => review.isDisabled()).toBe(false)
      // The check says what it found, and the confirmation that a row was edited.
      await fix.getByText('Checked: 1 row changed, no problems found.').waitFor()
      await lookAtDialog('retry-fix')
      await review.click()

      await page.getByTestId('confirm-submission').waitFor()
      await page
        .getByTestId('confirm-submission')
        .getByText('1 row edited by you before sending', { exact: false })
        .waitFor()
      await look('run-retry-confirm')
      // Money is at stake: nothing can be sent before the user agrees to the cost.
      retryRunId = await agreeAndSendAgain(page)
      expect(retryRunId).not.toBe(runId)
      const retried = await ended(retryRunId)
      expect(retried.run.totalTasks).toBe(1)
      expect(retried.run.status).toBe('succeeded')

      // Opened again, the run shows the row's new version as the one kept.
      await showRunsList()
      await page.locator(`tr[data-run-id="${runId}"] button.run-name`).click()
      const versions = page.locator('.row-versions li', { hasText: 'Row 3' })
      await versions.getByText(/succeeded, kept/i).waitFor({ timeout: 30_000 })
      // The retry's version names its run in words; the button carries its ID.
      expect(
        await versions
          .locator('button')
          .evaluateAll((bs) => bs.map((b) => b.getAttribute('data-run-id'))),
      ).toContain(retryRunId)
      await lookAtDialog('retry-fixed-versions')
    },
  )

  it('finds both runs in the history, and opens one from there', { timeout: 60_000 }, async () => {
    await showScreen(page, 'History')
    await page.getByRole('heading', { name: 'History' }).waitFor()
    // The first run, with its file and the run that retried it; the retry, naming the first.
    // Runs are named in words on the screen; their ids stay in the buttons' accessible names.
    const original = page.locator('.history-table tbody tr', {
      has: page.getByRole('button', { name: `Open run ${runId}` }),
    })
    const retry = page.locator('.history-table tbody tr', {
      has: page.getByRole('button', { name: `Open run ${retryRunId}` }),
    })
    await original.waitFor()
    await retry.waitFor()
    expect(await original.textContent()).toContain('orders.xlsx')
    expect(await original.textContent()).toContain('Rows sent again once')
    expect(await retry.textContent()).toContain('retry of an earlier run')
    await look('history')
    await page.getByLabel('Search the history').fill(retryRunId)
    await expect
      .poll(() => page.locator('.history-table tbody tr').count(), { timeout: 10_000 })
      .toBeGreaterThan(0)
    await page.getByLabel('Search the history').fill('')
    await page.getByRole('button', { name: `Open run ${retryRunId}` }).click()
    await page.getByText('Sends again rows of').waitFor()
  })

  it(
    'shows my listings, a review request and my private template',
    { timeout: 60_000 },
    async () => {
      await showScreen(page, 'Creator')
      await page.getByRole('heading', { name: 'My listings' }).waitFor()
      await page
        .getByRole('button', { name: 'Open the review request of Horoscope writer' })
        .click()
      await page.getByRole('heading', { name: 'Review request: Horoscope writer' }).waitFor()
      await page
        .locator('.review-reason-box')
        .getByText(/horoscopes are not accepted/)
        .waitFor()
      await page.getByLabel('Template ID').fill('weekly-status-report')
      await page.getByRole('button', { name: 'Show', exact: true }).click()
      await page.getByText('Version 2', { exact: true }).waitFor()
      await look('creator')
    },
  )

  it('saves a run’s outputs on its own as soon as it ends', { timeout: 90_000 }, async () => {
    await showScreen(page, 'Settings')
    await page.getByRole('checkbox', { name: /as soon as the run ends/ }).click()
    await expect.poll(() => app.engine.settings().read().autoSaveOutputs).toBe(true)
    const connection = await app.engine.connect({ env: BUILTIN_SANDBOX })
    const entry = await app.engine.submissions.journal(connection, {
      target: { kind: 'template', templateId: 'row-echo' },
      rows: [{ message: 'kept for good' }],
    })
    const keptRunId = (await app.engine.submissions.send(connection, entry)).runId
    await showRunsList()
    await page.locator(`tr[data-run-id="${keptRunId}"] button.run-name`).click()
    const runFolder = join(outputs, runFolderName(keptRunId))
    await expect
      .poll(() => page.getByLabel('Outputs saved in').inputValue(), { timeout: 30_000 })
      .toBe(runFolder)
    expect(readdirSync(runFolder)).toHaveLength(1)
    await page.getByText('Save all again').waitFor()
    await look('run-kept')
  })

  it(
    'compares two runs from the run detail, with filters and a workbook',
    { timeout: 90_000 },
    async () => {
      const connection = await app.engine.connect({ env: BUILTIN_SANDBOX })
      const send = async (messages: string[]) => {
        const entry = await app.engine.submissions.journal(connection, {
          target: { kind: 'template', templateId: 'row-echo' },
          rows: messages.map((message) => ({ message })),
          rowNumbers: messages.map((_, i) => i + 2),
        })
        const { runId: id } = await app.engine.submissions.send(connection, entry)
        await ended(id)
        return id
      }
      const first = await send(['alpha', 'beta', 'same place', 'only here'])
      const second = await send(['beta', 'alpha', 'same place', 'new one'])
      await showRunsList()
      await page.locator(`tr[data-run-id="${first}"] button.run-name`).click()
      const card = page.locator('section.compare-card')
      await card.getByLabel('Other run').fill(second)
      await card.getByRole('button', { name: 'Compare', exact: true }).click()
      await card
        .getByText('3 rows in both, 2 differ; 1 only in A; 1 only in B', { exact: false })
        .waitFor({ timeout: 30_000 })
      const table = card.locator('.comparison-table tbody tr')
      expect(await table.count()).toBe(5)
      // At 1280 px every column shows whole, "Ready after" too, without scrolling sideways.
      const scroller = (await card.locator('.comparison-scroll').boundingBox())!
      const last = (await card.locator('.comparison-table thead th').last().boundingBox())!
      expect(last.x + last.width).toBeLessThanOrEqual(scroller.x + scroller.width + 1)
      // "alpha" moved from row 2 to row 3: matched by its cells, its JSON differs in one field.
      const alpha = table.filter({ hasText: 'Row 2 · Row 3' })
      expect(await alpha.locator('.compare-fields li').allTextContents()).toEqual([
        'rowIndex 0 → 1',
      ])
      // A row in one run only shows its values under the sheet's column names, not as JSON.
      const alone = await table
        .filter({ hasText: 'only in A' })
        .locator('.compare-inputs')
        .textContent()
      expect(alone).toMatch(/^Message: only here/)
      await card.getByLabel('Only rows that differ').check()
      expect(await table.count()).toBe(4)
      await card.getByRole('button', { name: 'Save as workbook' }).click()
      const saved = join(outputs, `${first} vs ${second}.xlsx`)
      await expect.poll(() => card.getByLabel('Comparison saved in').inputValue()).toBe(saved)
      expect(existsSync(saved)).toBe(true)
      await card.getByLabel('Only rows that differ').uncheck()
      await screenshotAtBothSizes(page, 'after-run-compare', {
        restore: { width: 1280, height: 860 },
        eachSize: () => card.scrollIntoViewIfNeeded(),
      })
      expect(await seriousA11yViolations(page)).toEqual([])
    },
  )

  it('redoes chosen rows of a run after a confirmation', { timeout: 90_000 }, async () => {
    await showRunsList()
    await page.locator(`tr[data-run-id="${runId}"] button.run-name`).click()
    await page.getByLabel('Redo rows').fill('2, 4')
    await page.getByRole('button', { name: 'Redo 2 rows' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.waitFor()
    await screenshotBothThemes(page, 'after-run-redo-confirm-1280')
    // Money is at stake: nothing is sent before the user agrees to the cost.
    const send = dialog.getByRole('button', { name: /^Send/ })
    expect(await send.isDisabled()).toBe(true)
    await dialog.getByRole('checkbox', { name: /I agree/ }).check()
    await send.click()
    const sent = page.locator('.redo-rows').getByText('Sent as a new run')
    await sent.waitFor({ timeout: 30_000 })
    const redoRunId = (await sent.getByRole('button').getAttribute('data-run-id'))!
    const redone = await ended(redoRunId)
    expect(redone.run.totalTasks).toBe(2)
    // Opened again: each row sent again shows its versions, the newest that succeeded kept.
    await showRunsList()
    await page.locator(`tr[data-run-id="${runId}"] button.run-name`).click()
    const versions = page.locator('.row-versions li')
    await versions.first().waitFor({ timeout: 30_000 })
    expect(await versions.allTextContents()).toEqual([
      'Row 2: this run (succeeded) Keep this one → sent again (succeeded, kept)',
      // The failed row, fixed and retried earlier, succeeded: its newest version is kept.
      'Row 3: this run (failed) Keep this one → sent again (succeeded, kept)',
      'Row 4: this run (succeeded) Keep this one → sent again (succeeded, kept)',
    ])
    // Each later version opens the run that sent it again: the redo, or the earlier retry.
    expect(
      await versions
        .locator('button[data-run-id]')
        .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-run-id'))),
    ).toEqual([redoRunId, retryRunId, redoRunId])
    await page.locator('.row-versions').scrollIntoViewIfNeeded()
    await screenshotBothThemes(page, 'after-run-redo-versions-1280')
  })

  it(
    'keeps a setting across a restart of the engine and its server',
    { timeout: 90_000 },
    async () => {
      await showScreen(page, 'Settings')
      await page.getByRole('radio', { name: 'Dark' }).check()
      await expect.poll(() => page.locator('html').getAttribute('data-theme')).toBe('dark')
      await page.screenshot({
        path: join('test-results', 'screens', 'after-run-theme-dark-chosen.png'),
      })

      await app.restart()
      await page.goto(app.mode.url)
      await showScreen(page, 'Settings')
      await page.getByRole('heading', { name: 'Settings' }).waitFor()
      expect(await page.getByRole('radio', { name: 'Dark' }).isChecked()).toBe(true)
      expect(await page.getByLabel('Outputs folder').inputValue()).toBe(outputs)
      expect(await page.locator('html').getAttribute('data-theme')).toBe('dark')
      expect(existsSync(join(app.home, 'default-outputs'))).toBe(false)
    },
  )
})
