// A run of 50,000 rows, end to end in headless Chromium through browser mode: its page opens
// without holding its detail (the engine stores it and the page asks for windows of rows), shows
// its failed rows first, and scrolled to the end shows its last row; "Only failed rows" lists the
// failed alone. Shot in light and dark at 1280x800 and 860x700.
import { expect, it } from 'vitest'
import { BUYER_TOKEN } from '../helpers/buyer-seed'
import { pastRun, usageSandbox } from '../helpers/usage-seed'
import { describeInChromium, useE2eApp } from './harness'
import { screenshotAtBothSizes, seriousA11yViolations, showScreen } from './screens'
import { chooseEnvironment } from './steps'

const ROWS = 50_000
const FAILED = 100
const RUN_ID = 'run_big_page'
const now = Math.floor(Date.now() / 1000)

describeInChromium('Big run page', 'a run of 50,000 rows', () => {
  const { app, page } = useE2eApp({
    homePrefix: 'skill-runner-e2e-big-run-',
    taskMs: 20,
    environments: [
      {
        name: 'Big',
        token: BUYER_TOKEN,
        sandbox: usageSandbox([{ ...pastRun(now, 0, ROWS), failedRows: FAILED, runId: RUN_ID }]),
      },
    ],
  })

  /** The row labels of the Rows table now in the page, top to bottom. */
  const shownRows = () =>
    page
      .locator('.tasks-table tbody tr[data-task-id] td:first-child')
      .evaluateAll((cells) => cells.map((c) => c.textContent ?? ''))

  it('shows its first rows, and its last once scrolled there', { timeout: 180_000 }, async () => {
    await page.goto(app.mode.url)
    await chooseEnvironment(page, /Big/)
    await showScreen(page, 'Runs')
    await page.locator(`tr[data-run-id="${RUN_ID}"]`).locator('button.run-name').click()
    const rows = page.locator('.tasks-table')
    await rows.locator('tbody tr[data-task-id]').first().waitFor({ timeout: 60_000 })
    await page.getByText(`${ROWS.toLocaleString('en')} rows, ${FAILED} failed`).waitFor()

    // The failed rows first (the service's last 100), then the others in row order.
    expect((await shownRows())[0]).toBe(`Submitted row ${ROWS - FAILED + 1}`)
    expect(await rows.getAttribute('aria-rowcount')).toBe(String(ROWS + 1))
    expect(await page.locator('.tasks-table tbody tr').count()).toBeLessThan(100)

    const scroller = page.getByRole('region', { name: 'Rows of the run, scrollable' })
    await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight))
    await expect
      .poll(async () => (await shownRows()).at(-1), { timeout: 30_000 })
      .toBe(`Submitted row ${ROWS - FAILED}`)
    await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight / 2))
    await expect
      .poll(async () => (await shownRows()).some((r) => /^Submitted row 2\d{4}$/.test(r)), {
        timeout: 30_000,
      })
      .toBe(true)

    await page.getByRole('checkbox', { name: 'Only failed rows' }).check()
    await expect.poll(() => rows.getAttribute('aria-rowcount')).toBe(String(FAILED + 1))
    await scroller.evaluate((el) => el.scrollTo(0, 0))
    await expect.poll(async () => (await shownRows())[0]).toBe(`Submitted row ${ROWS - FAILED + 1}`)
    await page.getByRole('checkbox', { name: 'Only failed rows' }).uncheck()

    await screenshotAtBothSizes(page, 'big-run-rows', {
      eachSize: () => scroller.scrollIntoViewIfNeeded(),
    })
    expect(await seriousA11yViolations(page)).toEqual([])
  })
})
