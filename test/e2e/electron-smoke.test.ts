// Launches the real desktop app with Playwright's Electron launcher where Electron's binary is
// installed: the window opens on the built-in Sandbox, with its security settings in force.
// Electron 45 downloads its binary on first use (`npm start` does, or `npx install-electron --no`),
// never during `npm install`; tests never download it. Where it is missing the test is skipped
// and says so.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { _electron } from 'playwright-core'
import { electronBinary, ensureAppBuilt, root } from './support'

const binary = electronBinary()
if (!binary) {
  console.log(
    'Electron smoke test skipped: the Electron binary is not installed (node_modules/electron has no dist/). ' +
      'Electron 45 fetches it on first use, not during "npm install": run "npm start" (or ' +
      '"npx install-electron --no") once on a computer that can reach github.com or ELECTRON_MIRROR, ' +
      'then this test runs.',
  )
}

describe.skipIf(!binary)('desktop app (Electron)', () => {
  it('opens one secure window showing the built-in Sandbox', { timeout: 120_000 }, async () => {
    ensureAppBuilt()
    const home = mkdtempSync(join(tmpdir(), 'skill-runner-electron-'))
    const app = await _electron.launch({
      executablePath: binary!,
      args: [root, ...(process.platform === 'linux' ? ['--no-sandbox'] : [])],
      env: { ...process.env, SKILL_RUNNER_HOME: home },
    })
    try {
      const window = await app.firstWindow()
      await window
        .getByRole('heading', { name: /Sandbox/ })
        .first()
        .waitFor()
      // (Expressions as strings: they run in the page, which has DOM types this file does not.)
      expect(await window.evaluate('location.href')).toMatch(/^app:\/\/skill-runner\//)
      // The page has no Node and no raw IPC; only the Bridge's named functions.
      expect(await window.evaluate('typeof require')).toBe('undefined')
      expect(await window.evaluate('typeof process')).toBe('undefined')
      const exposed = (await window.evaluate('Object.keys(window.skillRunner ?? {})')) as string[]
      expect(exposed).toContain('listEnvironments')
      expect(exposed).not.toContain('ipcRenderer')
      // A permission asked for by the page is denied.
      const permission = await window.evaluate(
        'navigator.mediaDevices.getUserMedia({ audio: true }).then(() => "granted", () => "denied")',
      )
      expect(permission).toBe('denied')
      // Navigation away from the app is refused.
      await window.evaluate('location.href = "https://example.com/"').catch(() => {})
      expect(await window.evaluate('location.origin')).toBe('app://skill-runner')
    } finally {
      await app.close()
      rmSync(home, { recursive: true, force: true })
    }
  })
})
