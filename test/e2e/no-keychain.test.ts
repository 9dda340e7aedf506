// A computer without a keychain, in headless Chromium through browser mode: adding an
// environment says the real cause (no secure place to save the token), offers to keep the token
// for this session only, and then the header, the sidebar and the token dialog all say so. The
// session's token lives in the engine (the web host's process), never in the page.
import { expect, it } from 'vitest'
import { chooseSecretStore } from '../../src/core/secrets'
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox'
import { describeInChromium, useE2eApp } from './harness'
import { screenshotAtBothSizes, screenshotBothThemes } from './screens'

const TOKEN = 'tok-e2e-session-only-8d1e'

describeInChromium('No-keychain', 'signing in on a computer without a keychain', () => {
  let service: TestSandbox
  const received: string[] = []

  const { app, page } = useE2eApp(
    {
      homePrefix: 'skill-runner-e2e-nokeychain-',
      taskMs: 50,
      // The machine's own keychain is never asked: this computer has none.
      secrets: () => chooseSecretStore({ keychain: async () => null }),
    },
    () => {
      page.on(
        'response',
        (r) =>
          void r.text().then(
            (t) => received.push(t),
            () => {},
          ),
      )
      page.on('websocket', (s) => s.on('framereceived', (f) => received.push(String(f.payload))))
    },
  )

  it(
    'says why, keeps the token for this session only, and says so everywhere',
    {
      timeout: 90_000,
    },
    async () => {
      service = await startTestSandbox({ tokens: [TOKEN] })
      try {
        await page.goto(app.mode.url)
        await page.getByRole('button', { name: 'Add environment' }).click()
        const dialog = page.getByRole('dialog', { name: 'Add an environment' })
        await expect
          .poll(() => dialog.getByRole('note').textContent())
          .toContain('There is no secure place on this computer to save tokens.')
        const sessionOnly = dialog.getByLabel('Keep the token for this session only')
        expect(await sessionOnly.isChecked()).toBe(true)
        await dialog.getByLabel('Name').fill('Work')
        await dialog.getByLabel('Service address').fill(service.url)
        await dialog.getByLabel('API token').fill(TOKEN)
        await screenshotBothThemes(page, 'no-keychain-add-environment')

        // Saving is refused with the real cause, never the window's "could not read".
        await sessionOnly.uncheck()
        await dialog.getByRole('button', { name: 'Add environment' }).click()
        const refusal = dialog.getByRole('alert')
        await expect
          .poll(() => refusal.textContent())
          .toContain('There is no secure place on this computer to save the token.')
        expect(await refusal.textContent()).not.toContain('could not read')

        await sessionOnly.check()
        await dialog.getByRole('button', { name: 'Add environment' }).click()
        await dialog.waitFor({ state: 'detached' })

        const header = page.locator('.env-header')
        await expect.poll(() => header.textContent()).toContain('Token kept for this session only')
        const sidebar = page.getByRole('navigation', { name: 'Environments' })
        expect(await sidebar.getByRole('button', { name: /Work/ }).textContent()).toContain(
          'Token kept for this session only',
        )
        expect(await sidebar.textContent()).toContain('A token can be kept for this session only')
        await screenshotBothThemes(page, 'no-keychain-session-token')

        // The token works: the connection check signs in with it.
        const works = await app.engine.checkConnection({ env: 'Work' })
        expect(works.ok).toBe(true)

        await header.getByRole('button', { name: 'Change token' }).click()
        const tokenDialog = page.getByRole('dialog', { name: 'Change token: Work' })
        expect(await tokenDialog.textContent()).toContain('Now: Token kept for this session only.')
        await screenshotAtBothSizes(page, 'no-keychain-change-token')
        // The keychain is named in words; its install command only under Details.
        const unfolded = await tokenDialog.evaluate((d) => {
          const copy = d.cloneNode(true) as HTMLElement
          for (const body of copy.querySelectorAll('details > :not(summary)')) body.remove()
          return copy.textContent ?? ''
        })
        expect(unfolded).not.toMatch(/apt install/)
        expect(await tokenDialog.locator('details').textContent()).toMatch(/apt install/)
        await tokenDialog.getByRole('button', { name: 'Cancel' }).click()

        expect(received.some((text) => text.includes(TOKEN))).toBe(false)
      } finally {
        await service.close()
      }
    },
  )
})
