// The Usage screen end to end in headless Chromium through browser mode: an environment whose
// service has runs over the last 30 days (the seed's pastRuns) shows them per day as a chart
// whose table view holds the same numbers, lists a day's runs when its bar is chosen, says where
// the month stands against the monthly limit, and passes axe. Shot at 1280 and 860, light and dark.
import { expect, it } from 'vitest'
import { monthSpending } from '../../src/shared/usage/figures'
import { BUYER_TOKEN } from '../helpers/buyer-seed'
import { pastRunsOver, usageSandbox } from '../helpers/usage-seed'
import { describeInChromium, useE2eApp } from './harness'
import { screenshotAtBothSizes, seriousA11yViolations, showScreen } from './screens'
import { chooseEnvironment, chooseWorkbook } from './steps'
import { join } from 'node:path'
import { writeBuyerWorkbook } from '../helpers/buyer-seed'

const now = Math.floor(Date.now() / 1000)

describeInChromium('Usage', 'the Usage screen', () => {
  const { app, page } = useE2eApp({
    homePrefix: 'skill-runner-e2e-usage-',
    taskMs: 20,
    environments: [
      { name: 'Usage', token: BUYER_TOKEN, sandbox: usageSandbox(pastRunsOver(now, 30, 2)) },
    ],
    // A limit this month has passed 80% of, so the screen says how much is left.
    async afterConnect(engine) {
      const connection = await engine.connect({ env: 'Usage' })
      const read = await engine.usage.read(connection)
      const spent = monthSpending(
        read.runs,
        Date.now(),
        Intl.DateTimeFormat().resolvedOptions().timeZone,
      )
      engine.usage.setLimit('Usage', Math.ceil((spent.finishedT + spent.runningT) / 0.9) + 1)
    },
  })

  /** Each bar's period and total, as the chart names them to a screen reader. */
  const barTotals = () =>
    page
      .locator('.usage-bar')
      .evaluateAll((bars) =>
        bars.map((b) => (b.getAttribute('aria-label') ?? '').replace(/\. Show its runs\.$/, '')),
      )
  /** Each row of the table view: its period and its total. */
  const tableTotals = () =>
    page
      .locator('.usage-chart-card .usage-table tbody tr')
      .evaluateAll((rows) =>
        rows.map(
          (r) =>
            `${r.querySelector('th')?.textContent}: ${r.querySelector('td:last-child')?.textContent}`,
        ),
      )

  it('draws the last 30 days, its table view says the same, and a bar lists its runs', async () => {
    await page.goto(app.mode.url)
    await chooseEnvironment(page, /Usage/)
    await showScreen(page, 'Usage')
    await page.getByRole('heading', { name: 'The last 30 days' }).waitFor()
    await page.locator('.usage-bar').first().waitFor()
    await expect.poll(() => page.locator('.usage-bar').count()).toBe(30)
    expect(await page.getByText(/monthly limit of .* left/).textContent()).toMatch(
      /kept by this computer, not by the service/,
    )
    expect(await seriousA11yViolations(page)).toEqual([])

    const chart = await barTotals()
    expect(chart.filter((t) => !/: 0 credits$/.test(t)).length).toBeGreaterThanOrEqual(14)
    await page.getByRole('button', { name: 'Table' }).click()
    await page.locator('.usage-table').first().waitFor()
    expect(await tableTotals()).toEqual(chart)
    expect(await seriousA11yViolations(page)).toEqual([])
    await page.getByRole('button', { name: 'Table' }).click()

    // The last bar is today: a run ended today (pastRunsOver starts at 0 days ago).
    const today = page.locator('.usage-bar').last()
    await today.focus()
    await page.keyboard.press('Enter')
    const runs = page.locator('.usage-runs li')
    await runs.first().waitFor()
    expect(await runs.count()).toBeGreaterThanOrEqual(1)
    expect(await page.getByRole('heading', { name: /^Runs that ended on / }).isVisible()).toBe(true)

    await screenshotAtBothSizes(page, 'usage', {
      eachSize: () => page.locator('.screen').evaluate((s) => s.scrollTo(0, 0)),
    })
    await page.getByRole('button', { name: 'Months' }).click()
    await page.getByRole('heading', { name: 'The last 12 months' }).waitFor()
    await expect.poll(() => page.locator('.usage-bar').count()).toBe(12)
    expect(await seriousA11yViolations(page)).toEqual([])
    await screenshotAtBothSizes(page, 'usage-months')

    // The limit is set in Settings, and the Usage screen says the new one.
    await showScreen(page, 'Settings')
    const field = page.getByLabel('Monthly spending limit in Usage')
    await field.fill('5000')
    const setting = page.locator('.setting').filter({ has: field })
    await setting.getByRole('button', { name: 'Save' }).click()
    await setting.getByText('Saved').waitFor()
    expect(await seriousA11yViolations(page)).toEqual([])
    await screenshotAtBothSizes(page, 'usage-settings-limit', {
      eachSize: () => field.scrollIntoViewIfNeeded(),
    })
    await showScreen(page, 'Usage')
    await page.getByText(/monthly limit of 5,000 credits/).waitFor()
  })

  it('says on the confirm step what the month leaves, and refuses a send past the limit', async () => {
    const usage = await app.engine.connect({ env: 'Usage' })
    const read = await app.engine.usage.read(usage)
    const spent = monthSpending(
      read.runs,
      Date.now(),
      Intl.DateTimeFormat().resolvedOptions().timeZone,
    )
    const spentT = spent.finishedT + spent.runningT
    // 3 rows of Ad copy cost 12 credits: past a limit that leaves 10.
    app.engine.usage.setLimit('Usage', spentT + 10)
    const book = join(app.home, 'ads.xlsx')
    await writeBuyerWorkbook(book, [
      ['Kettle', 'friendly', 20],
      ['Lamp', 'formal', 5],
      ['Desk', 'formal', 35],
    ])
    await page.goto(app.mode.url)
    await chooseEnvironment(page, /Usage/)
    // Ad copy is known from the runs of the past: it is offered by name.
    await page.getByRole('radio', { name: 'Marketplace listing' }).check()
    await page.getByRole('radio', { name: /Ad copy/ }).check()
    await page.getByRole('heading', { name: '2. Ad copy' }).waitFor()
    await chooseWorkbook(page, book)
    await page.getByText('3 rows, no problems: ready to send.').waitFor()
    await page.getByRole('button', { name: 'Review the cost and send…' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByText(/This send would pass it, so it is not sent/).waitFor()
    expect(await seriousA11yViolations(page)).toEqual([])
    await screenshotAtBothSizes(page, 'usage-confirm-over-limit', {
      eachSize: () => dialog.getByText(/monthly limit of/).scrollIntoViewIfNeeded(),
    })
    await dialog.getByRole('checkbox', { name: /I agree to pay/ }).check()
    await dialog.getByRole('button', { name: /^Send/ }).click()
    await dialog.getByText(/Nothing was sent: the estimate of 12 credits would pass/).waitFor()
  })
})
