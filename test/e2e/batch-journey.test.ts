// Issue 30's journey in the window, end to end in headless Chromium through browser mode,
// against a sandbox added by address: a buyer's own 20-row sheet (a title row, renamed headers,
// an extra column, 2 bad rows) is mapped; a pilot of 3 valid rows goes with the 2 bad ones set
// aside, then the rest (the 15 other valid rows); the run's page names its sheet and opens the
// batch page (photographed at 1280 and 860 px, light and dark), where a row chosen from the
// pilot goes again only once the buyer chooses to pay again; "All rows" on New run then names
// the rows paid before and sends nothing unless asked.
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { waitForRun, type TestSandbox } from '../helpers/sandbox'
import { describeInChromium, useE2eApp } from './harness'
import { writeSheet } from './input-workbook'
import { screenshotAtBothSizes, seriousA11yViolations, showScreen } from './screens'
import { chooseEnvironment, chooseWorkbook, fieldOf, shownRunId, useTemplateById } from './steps'

const TOKEN = 'tok-e2e-team-batch'
/** Data rows (1-based) with a bad number: sheet rows 8 and 17, under a title, a gap and headers. */
const BAD = [5, 14]

const ended = (sandbox: TestSandbox, runId: string) => waitForRun(sandbox, runId, TOKEN)

describeInChromium('Batch journey', 'one sheet across a pilot and its rest, in the app', () => {
  const { app, page } = useE2eApp({
    homePrefix: 'skill-runner-e2e-batch-',
    taskMs: 20,
    environments: [{ name: 'Team', token: TOKEN, sandbox: { taskMs: 20 } }],
    context: { viewport: { width: 1280, height: 800 } },
  })

  /** Agrees to pay in the open confirmation and sends; the new run's id. */
  async function agreeAndSend(other = ''): Promise<string> {
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('checkbox', { name: /I agree/ }).check()
    await dialog.getByRole('button', { name: /^Send/ }).last().click()
    return shownRunId(page, other)
  }

  it(
    'pilot with rows set aside, the rest, the batch page, and no row paid twice unasked',
    { timeout: 240_000 },
    async () => {
      const team = app.sandboxes.Team!
      const sheet = await writeSheet(
        join(app.home, 'products.xlsx'),
        'Export',
        [['Exported from the shop'], [], ['Text', 'Seq', 'Long notes', 'Owner']],
        20,
        (i) => [`Hello ${i}`, BAD.includes(i) ? 'n/a' : i, `Note ${i}`, `ann${i}`],
      )
      await page.goto(app.mode.url)
      await chooseEnvironment(page, /Team/)
      await useTemplateById(page, 'row-echo', 'Row echo')
      await chooseWorkbook(page, sheet)
      await page.getByRole('heading', { name: 'Your columns and the template’s fields' }).waitFor()
      expect(await fieldOf(page, 'Text').inputValue()).toBe('message')
      await page.getByRole('button', { name: 'Use this mapping' }).click()

      // A pilot of 3 of the 18 valid rows, while the 2 bad ones are set aside.
      await page
        .getByRole('button', { name: 'Send 18 valid rows and set 2 aside to fix…' })
        .waitFor()
      const pilotRadio = page
        .locator('fieldset.pilot')
        .getByRole('radio', { name: /A pilot of the first/ })
      expect(await pilotRadio.isDisabled()).toBe(false)
      await pilotRadio.check()
      await page.getByLabel('Rows in the pilot').fill('3')
      await page
        .getByRole('button', {
          name: 'Send a pilot of 3 of the 18 valid rows and set 2 aside to fix…',
        })
        .click()
      await page
        .getByRole('dialog')
        .getByText('Send a pilot of 3 valid rows and set 2 aside?')
        .waitFor()
      const pilotId = await agreeAndSend()
      expect((await ended(team, pilotId)).run.totalTasks).toBe(3)

      // Its rest: only the 15 other valid rows.
      const rest = page.getByTestId('rest-of-pilot')
      await rest
        .getByRole('button', { name: 'Send the remaining 15 rows…' })
        .click({ timeout: 60_000 })
      await page
        .getByRole('dialog')
        .getByText(/The rest after the pilot: 15 rows/)
        .waitFor()
      const restId = await agreeAndSend(pilotId)
      expect((await ended(team, restId)).run.totalTasks).toBe(15)

      // The run's page names its sheet and its summary, and opens the batch page.
      const link = page.locator('.batch-link')
      await link.getByText(/20 rows: 18 succeeded, 2 set aside to fix/).waitFor({ timeout: 30_000 })
      expect(await link.textContent()).toMatch(/^Part of products\.xlsx — 20 rows/)
      await link.getByRole('button', { name: 'products.xlsx' }).click()
      const batchPage = page.locator('.batch-page')
      await batchPage.getByRole('heading', { name: 'products.xlsx' }).waitFor()
      const row = (n: number) => batchPage.locator(`tr[data-sheet-row="${n}"]`)
      await row(4).waitFor()
      expect(await row(4).getAttribute('data-state')).toBe('succeeded')
      expect(await row(4).locator('button[data-run-id]').textContent()).toBe('Pilot')
      expect(await row(8).getAttribute('data-state')).toBe('set-aside')
      expect(await row(9).locator('button[data-run-id]').textContent()).toBe('Rest after the pilot')
      await screenshotAtBothSizes(page, 'batch-page')
      expect(await seriousA11yViolations(page)).toEqual([])

      // The set-aside filter shows the 2 bad rows only.
      await batchPage.getByLabel('Show').selectOption('set-aside')
      await batchPage.locator('tr[data-sheet-row="17"]').waitFor()
      expect(await batchPage.locator('tbody tr[data-sheet-row]').count()).toBe(2)
      await screenshotAtBothSizes(page, 'batch-page-set-aside')
      await batchPage.getByLabel('Show').selectOption('all')

      // A row of the pilot chosen: sent again only once the buyer chooses to pay again.
      await row(5).getByRole('checkbox').check()
      await batchPage.getByRole('button', { name: 'Send 1 chosen row…' }).click()
      const dialog = page.getByRole('dialog')
      await dialog
        .getByTestId('paid-before')
        .getByText('Paid before: row 5 of the sheet.')
        .waitFor()
      await dialog.getByRole('checkbox', { name: /I agree/ }).check()
      const send = dialog.getByRole('button', { name: /^Send/ }).last()
      expect(await send.isDisabled()).toBe(true)
      await screenshotAtBothSizes(page, 'batch-page-paid-before')
      await dialog.getByRole('checkbox', { name: 'Send these rows again (pay again)' }).check()
      await send.click()
      const again = await page
        .getByText('Sent as a new run.')
        .getByRole('button')
        .getAttribute('data-run-id')
      // The page shows row 5 sent again, without a reload.
      await row(5).locator('.batch-again').waitFor()
      expect((await ended(team, again!)).run.totalTasks).toBe(1)

      // History: the sheet's runs together under its name, each named by how it was sent.
      await showScreen(page, 'History')
      const head = page.locator('.history-table tbody tr[data-batch-head]')
      await head.getByText(/20 rows: /).waitFor()
      const runs = page.locator('.history-table tbody tr[data-in-batch]')
      expect(await runs.count()).toBe(3)
      expect(await runs.nth(0).textContent()).toContain('pilot')
      expect(await runs.nth(1).textContent()).toContain('rest after the pilot')
      expect(await runs.nth(2).textContent()).not.toContain('retry')
      await screenshotAtBothSizes(page, 'batch-history')

      // "All rows" after the pilot: the confirmation names the rows paid before.
      await showScreen(page, 'New run')
      await chooseWorkbook(page, sheet)
      await page.getByText('matched the way you confirmed last time', { exact: false }).waitFor()
      await page
        .locator('fieldset.pilot')
        .getByRole('radio', { name: /All 18 valid rows/ })
        .check()
      await page.getByRole('button', { name: 'Send 18 valid rows and set 2 aside to fix…' }).click()
      const note = dialog.getByTestId('paid-before')
      await note.waitFor()
      expect(await note.textContent()).toContain('would be paid again')
      expect(await note.textContent()).toContain(
        'Paid before: rows 4 to 7, 9 to 16 and 18 to 23 of the sheet.',
      )
      await dialog.getByRole('checkbox', { name: /I agree/ }).check()
      expect(await dialog.getByRole('button', { name: /^Send/ }).last().isDisabled()).toBe(true)
      await screenshotAtBothSizes(page, 'batch-all-rows-paid-before')
      await dialog.getByRole('button', { name: 'Cancel' }).click()
    },
  )
})
