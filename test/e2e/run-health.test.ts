// How runs that need the user read in the app (browser mode, headless Chromium): a run that
// "succeeded" with a failed row says "Finished with 1 failed", a stalled run says it is stalled
// and what to do, and the runs list outlives an outage of the service: it keeps the runs as last
// seen under a banner, picks up by itself when the service is back, and the counts are right.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { describeInChromium, useE2eApp } from './harness'
import { sendStraight, startTestSandbox, waitForRun, type TestSandbox } from '../helpers/sandbox'
import { drawn, showScreen, screenshotAtBothSizes } from './screens'

const TOKEN = 'tok-away'

describeInChromium('Run-health', 'runs that need attention, and an outage', () => {
  let back: TestSandbox | undefined
  const dbPath = join(mkdtempSync(join(tmpdir(), 'sr-run-health-')), 'away.db')
  let failedRunId = ''
  let stalledRunId = ''

  const { app, page } = useE2eApp({
    homePrefix: 'skill-runner-run-health-',
    taskMs: 50,
    environments: [{ name: 'Away', token: TOKEN, sandbox: { dbPath, taskMs: 100 } }],
    // The app's paces (a look every 10 s at most while nothing moves, every 30 s while the
    // service is away) at a tenth: the outage is seen and its end picked up in seconds.
    watch: { watchMaxMs: 1000, outageRetryMs: 3000 },
  })

  /** Light and dark at the two window sizes the app is used at. */
  const look = (name: string) => screenshotAtBothSizes(page, `run-health-${name}`)

  const row = (runId: string) => page.locator(`tr[data-run-id="${runId}"]`)
  const banner = () => page.getByTestId('runs-unreachable')

  it(
    'says a run finished with a failed row, and shows a stalled run as stalled',
    { timeout: 90_000 },
    async () => {
      const sandbox = app.sandboxes.Away!
      failedRunId = await sendStraight(sandbox, [
        { message: 'first' },
        { message: 'oops [[fail]]' },
        { message: 'third' },
      ])
      await waitForRun(sandbox, failedRunId)
      stalledRunId = await sendStraight(sandbox, [{ message: 'one' }, { message: 'two [[stall]]' }])

      // The page's clock is ours: moving it on shows what the user sees minutes later.
      await page.clock.install()
      await page.goto(app.mode.url)
      await page.getByText('Away').first().click()
      await showScreen(page, 'Runs')
      await row(failedRunId)
        .getByText('Finished with 1 failed (2 of 3 succeeded)', { exact: true })
        .waitFor({ timeout: 30_000 })
      await row(stalledRunId).getByText('1 of 2 rows succeeded').waitFor({ timeout: 30_000 })
      expect(
        await row(stalledRunId)
          .getByText(/Stalled/)
          .count(),
      ).toBe(0)

      // Five minutes without a change: stalled, in the list and on the run's page.
      await page.clock.fastForward('05:00')
      await row(stalledRunId)
        .getByText(/^Stalled for \d+ min$/)
        .waitFor()
      await page.getByLabel('Show').selectOption('attention')
      await expect.poll(() => page.locator('tr[data-run-id]').count()).toBe(2)
      await look('list')
      await page.getByLabel('Show').selectOption('')

      await row(stalledRunId).locator('button.run-name').click()
      const notice = page.locator('.stalled-notice')
      await notice.waitFor()
      expect(await notice.textContent()).toMatch(/^Stalled: no row has changed for \d+ min/)
      expect(await notice.textContent()).toContain('contact the creator')
      await look('stalled-detail')
      await page.getByRole('button', { name: '← All runs' }).click()
    },
  )

  it(
    'keeps the last-seen runs under a banner while the service is away, then recovers',
    { timeout: 150_000 },
    async () => {
      const sandbox = app.sandboxes.Away!
      const port = sandbox.port
      await row(stalledRunId).waitFor()
      const shown = await page.locator('tr[data-run-id]').count()
      expect(shown).toBe(2)

      // A run open on screen when the service goes away says when it was last seen instead of
      // "Live", and its clock stops there.
      await row(stalledRunId).locator('button.run-name').click()
      await page.locator('.live-dot').waitFor()
      await sandbox.close()
      await page.getByText(/^Last seen /).waitFor({ timeout: 60_000 })
      expect(await page.locator('.live-dot').count()).toBe(0)
      await look('outage-detail')
      await page.getByRole('button', { name: '← All runs' }).click()
      await banner().waitFor({ timeout: 60_000 })
      expect(await banner().textContent()).toMatch(
        /Can’t reach the service since .+, trying again every 3 s/,
      )
      // Refresh while it is away: the runs stay, as last seen.
      const refreshed = page.waitForResponse((r) => r.url().endsWith('/refreshRuns'), {
        timeout: 60_000,
      })
      await page.getByRole('button', { name: 'Refresh' }).click()
      await refreshed
      await drawn(page)
      expect(await page.locator('tr[data-run-id]').count()).toBe(shown)
      expect(await row(stalledRunId).getAttribute('data-last-seen')).toBe('')
      await expect.poll(() => page.getByText('0 runs').count()).toBe(0)
      await look('outage')

      back = await startTestSandbox({ dbPath, port, taskMs: 100, tokens: [TOKEN] })
      await banner().waitFor({ state: 'detached', timeout: 60_000 })
      expect(await page.locator('tr[data-run-id]').count()).toBe(shown)
      await page.getByText('2 runs', { exact: false }).first().waitFor()
      await back.close()
    },
  )
})
