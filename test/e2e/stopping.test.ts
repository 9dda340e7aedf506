// A sent run cannot be stopped: the service has no cancel endpoint, so the app must not pretend.
// End to end in headless Chromium through browser mode: a run whose tasks take minutes is sent
// from this device, opened, and its page says plainly that it cannot be stopped from here, with
// no button that claims to stop it. Shot in light and dark at 1280x800 and 860x700.
import { expect, it } from 'vitest'
import { BUILTIN_SANDBOX } from '../../src/core/environments/environments'
import { describeInChromium, useE2eApp } from './harness'
import { seriousA11yViolations, showScreen, screenshotAtBothSizes } from './screens'

describeInChromium('Stopping', 'a sent run, in the app', () => {
  const { app, page } = useE2eApp({
    homePrefix: 'skill-runner-stopping-',
    // Long enough that the run is still going while the test looks at it.
    taskMs: 10 * 60_000,
  })

  it(
    'says it cannot be stopped from here, and offers no stop button',
    { timeout: 90_000 },
    async () => {
      const connection = await app.engine.connect({ env: BUILTIN_SANDBOX })
      const entry = await app.engine.submissions.journal(connection, {
        target: { kind: 'template', templateId: 'row-echo' },
        rows: [{ message: 'first' }, { message: 'second' }],
      })
      const runId = (await app.engine.submissions.send(connection, entry)).runId

      await page.goto(app.mode.url)
      await showScreen(page, 'Runs')
      await page.locator(`tr[data-run-id="${runId}"]`).locator('button.run-name').click()
      const card = page.getByTestId('stopping-card')
      await card.getByRole('heading', { name: 'Stopping this run' }).waitFor()
      await card.getByText(/A sent run cannot be stopped from here/).waitFor()
      expect(await card.getByRole('button').count()).toBe(0)
      expect(await page.getByRole('button', { name: /stop|cancel/i }).count()).toBe(0)

      await screenshotAtBothSizes(page, 'stopping-live', {
        eachSize: () => card.scrollIntoViewIfNeeded(),
      })
      expect(await seriousA11yViolations(page)).toEqual([])
    },
  )
})
