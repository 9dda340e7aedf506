// The picture in README.md is made here: the built app in browser mode, in headless Chromium,
// on the built-in Sandbox with a finished run, every screen shot into test-results/screens/
// (git-ignored). With SKILL_RUNNER_UPDATE_SCREENSHOT=1 the Runs screen is also written to
// docs/skill-runner.png, the file README.md shows; either way the test checks that README
// points at a real screenshot of the app's size.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { isTerminalStatus } from '../../src/shared/contract'
import { useE2eApp, type E2eApp } from './harness'
import { SCREENS_DIR } from './screens'
import { chromiumMissing, root } from './support'

export const README_SCREENSHOT = join('docs', 'skill-runner.png')
const SIZE = { width: 1280, height: 800 }

const missing = chromiumMissing()
if (missing) console.log(`README screenshot test skipped: ${missing}.`)

function pngSize(file: string) {
  const data = readFileSync(file)
  expect(data.subarray(1, 4).toString('ascii')).toBe('PNG')
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) }
}

describe.skipIf(missing !== null)('the screenshot in README.md', () => {
  let app: E2eApp
  let page: Page

  useE2eApp(
    {
      homePrefix: 'skill-runner-shot-',
      taskMs: 50,
      // A finished run with one failed row, as after the README walk-through.
      afterConnect: async (engine, connection) => {
        const entry = await engine.submissions.journal(connection, {
          target: { kind: 'template', templateId: 'row-echo' },
          rows: [
            { message: 'Hello from the sandbox', sequence: 1 },
            { message: 'Second row', sequence: 2 },
            { message: 'This row fails on purpose [[fail]]', sequence: 3 },
          ],
        })
        const { runId } = await engine.submissions.send(connection, entry)
        while (!isTerminalStatus((await connection.client.run(runId)).run.status)) {
          await new Promise((r) => setTimeout(r, 100))
        }
      },
      context: { viewport: SIZE },
    },
    (started) => {
      app = started
      page = started.page
    },
    120_000,
  )

  it('shows every screen, and README points at the Runs screen', { timeout: 60_000 }, async () => {
    await page.goto(app.mode.url)
    await page
      .getByRole('heading', { name: /Sandbox/ })
      .first()
      .waitFor()
    mkdirSync(SCREENS_DIR, { recursive: true })
    const nav = page.getByRole('navigation', { name: 'Screens' })
    for (const label of ['New run', 'History', 'Creator', 'Settings', 'Runs']) {
      await nav.getByRole('button', { name: label }).click()
      await page.waitForTimeout(300)
      await page.screenshot({ path: join(SCREENS_DIR, `readme-${label.replace(' ', '-')}.png`) })
    }
    // The Runs screen lists the finished run.
    await page
      .getByText(/2 of 3 rows succeeded/)
      .first()
      .waitFor()
    const shot = join(SCREENS_DIR, 'readme-Runs.png')
    await page.screenshot({ path: shot })
    if (process.env.SKILL_RUNNER_UPDATE_SCREENSHOT === '1') {
      mkdirSync(join(root, 'docs'), { recursive: true })
      copyFileSync(shot, join(root, README_SCREENSHOT))
    }
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    expect(readme).toContain(`](${README_SCREENSHOT})`)
    expect(existsSync(join(root, README_SCREENSHOT))).toBe(true)
    expect(pngSize(join(root, README_SCREENSHOT))).toEqual(SIZE)
  })
})
