// The app in headless Chromium through browser mode, end to end: the real engine with the
// built-in Sandbox, the real web server, the built renderer. The runs list shows the Sandbox's
// runs and updates by itself when a run is submitted and finishes. Every HTTP response and
// WebSocket frame the page receives is kept, and none of them may contain a token.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { BUILTIN_SANDBOX_TOKEN } from '../../src/core/environments/builtin-sandbox'
import { BUILTIN_SANDBOX } from '../../src/core/environments/environments'
import { describeInChromium, useE2eApp } from './harness'
import { showScreen } from './screens'

/** A token only this test knows: it must never reach the page. */
const STAGING_TOKEN = 'tok-e2e-very-secret-5f1c2a'

describeInChromium('Browser-mode', 'browser mode in headless Chromium', () => {
  const received: { where: string; text: string }[] = []

  const { app, page } = useE2eApp(
    {
      homePrefix: 'skill-runner-e2e-',
      taskMs: 400,
      environments: [{ name: 'Staging', token: STAGING_TOKEN }],
    },
    () => {
      keepWhatThePageReceives()
    },
  )

  /** Every HTTP response and WebSocket frame the page receives, kept in `received`. */
  function keepWhatThePageReceives() {
    page.on('response', (response) => {
      void response
        .text()
        .then((text) => received.push({ where: `${response.status()} ${response.url()}`, text }))
        .catch(() => {})
    })
    page.on('websocket', (socket) => {
      socket.on('framereceived', (frame) =>
        received.push({ where: `ws ${socket.url()}`, text: String(frame.payload) }),
      )
    })
  }

  it(
    'opens on the built-in Sandbox and its runs list updates live',
    { timeout: 90_000 },
    async () => {
      await page.goto(app.mode.url)
      await showScreen(page, 'Runs')
      await page.getByRole('heading', { name: 'Runs' }).waitFor()
      await page.getByText('Staging').first().waitFor()
      await page
        .getByText(/No runs yet|runs?/)
        .first()
        .waitFor()

      // Saving by hand is what this journey shows (saving on its own is after-run.test.ts's).
      app.engine.settings().update({ autoSaveOutputs: false })
      // A run submitted elsewhere (the command line, another window) appears by itself.
      const connection = await app.engine.connect({ env: BUILTIN_SANDBOX })
      const entry = await app.engine.submissions.journal(connection, {
        target: { kind: 'template', templateId: 'row-echo' },
        rows: [{ message: 'one' }, { message: 'two' }, { message: 'three' }],
      })
      const { runId } = await app.engine.submissions.send(connection, entry)
      const row = page.locator(`tr[data-run-id="${runId}"]`)
      await row.waitFor({ timeout: 30_000 })
      // ... and follows the run to its end without a click.
      // (The progress text says "0 of 3 rows succeeded" from the start: wait for the end state.)
      await row.getByText('3 of 3 rows succeeded').waitFor({ timeout: 30_000 })
      await row.getByText('Succeeded', { exact: true }).waitFor()
      expect(await row.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100')

      // Its outputs are saved with one click, and the row says so.
      await row.getByRole('button', { name: /^Save outputs/ }).click()
      await row.getByText('Saved 3 files').waitFor({ timeout: 30_000 })
      const folder = join(app.home, 'Downloads', runId)
      expect(readdirSync(folder).sort()).toEqual(['row-001', 'row-002', 'row-003'])
      // ... and the screen says where, in full, to copy.
      expect(await page.getByLabel('Saved 3 files of the run in').inputValue()).toBe(folder)
    },
  )

  it('checks a connection and lists another environment without ever sending its token', async () => {
    await page.getByText('Staging').first().click()
    await page
      .getByRole('heading', { name: /Staging/ })
      .first()
      .waitFor()
    await page.getByRole('heading', { name: 'Runs' }).waitFor()
    // Staging's runs and its checks are asked for as the screen loads.
    await expect
      .poll(() => received.some((r) => r.text.includes(app.sandboxes.Staging.url)))
      .toBe(true)
    await expect.poll(() => received.length).toBeGreaterThan(3)
    await expect.poll(() => received.some((r) => r.where.startsWith('ws '))).toBe(true)
    const leaks = received.filter(
      (r) => r.text.includes(STAGING_TOKEN) || r.text.includes(BUILTIN_SANDBOX_TOKEN),
    )
    expect(leaks.map((l) => l.where)).toEqual([])
  })
})
