// A computer without a keychain, in headless Chromium through browser mode: adding an
// environment says the real cause (no secure place to save the token), offers to keep the token
// for this session only, and then the header, the sidebar and the token dialog all say so. The
// session's token lives in the engine (the web host's process), never in the page.
import { expect, it } from 'vitest'
import { chooseSecretStore } from '../../src/core/secrets'
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox'
import { describeInChromium, useE2eApp } from './harness'
import { screenshotAtBothSizes, screenshotBothThemes } from './screens'

function occurrences(text: string | null, words: string): number {
  return (text ?? '').split(words).length - 1
}

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
        const sentence = dialog.locator('#dialog-description')
        await expect
          .poll(() => sentence.textContent())
          .toContain(
            'There is no secure place on this computer to save tokens, so Skill Runner holds the token in its memory for this session only',
          )
        const sessionOnly = dialog.getByLabel('Keep the token for this session only')
        expect(await sessionOnly.isChecked()).toBe(true)
        await dialog.getByLabel('Name').fill('Work')
        await dialog.getByLabel('Service address').fill(service.url)
        await dialog.getByLabel('API token').fill(TOKEN)
        await screenshotAtBothSizes(page, 'no-keychain-add-environment')

        // Unticked, the dialog says the token cannot be saved (never "saved encrypted"), once.
        await sessionOnly.uncheck()
        expect(await sentence.textContent()).toContain(
          'this token cannot be saved. Tick "Keep the token for this session only"',
        )
        expect(await dialog.textContent()).not.toContain('saved encrypted')
        expect(occurrences(await dialog.textContent(), 'no secure place')).toBe(1)
        await screenshotAtBothSizes(page, 'no-keychain-add-environment-unticked')

        // Sending anyway is refused with what to do, without the reason a second time.
        await dialog.getByRole('button', { name: 'Add environment' }).click()
        const refusal = dialog.getByRole('alert')
        await expect
          .poll(() => refusal.textContent())
          .toContain('Nothing was saved. Tick "Keep the token for this session only"')
        expect(await refusal.textContent()).not.toContain('could not read')
        expect(occurrences(await dialog.textContent(), 'no secure place')).toBe(1)
        await screenshotAtBothSizes(page, 'no-keychain-add-environment-refused')

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
