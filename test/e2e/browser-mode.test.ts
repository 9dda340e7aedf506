// The app in headless Chromium through browser mode, end to end: the real engine with the
// built-in Sandbox, the real web server, the built renderer. The runs list shows the Sandbox's
// runs and updates by itself when a run is submitted and finishes. Every HTTP response and
// WebSocket frame the page receives is kept, and none of them may contain a token.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromium, type Browser, type Page } from 'playwright-core'
import { BUILTIN_SANDBOX_TOKEN } from '../../src/core/builtin-sandbox'
import { createEngine, type Engine } from '../../src/core/engine'
import { BUILTIN_SANDBOX } from '../../src/core/environments'
import { MemorySecretStore } from '../../src/core/secrets'
import { createShellEngine } from '../../src/core/shell-engine'
import { startSandbox } from '../../src/sandbox'
import { startBrowserMode, type BrowserMode } from '../../src/web/app'
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox'
import {
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  chromiumMissing,
  ensureAppBuilt,
  rendererDir,
} from './support'

const missing = chromiumMissing()
if (missing) console.log(`Browser-mode end-to-end test skipped: ${missing}.`)

/** A token only this test knows: it must never reach the page. */
const STAGING_TOKEN = 'tok-e2e-very-secret-5f1c2a'

describe.skipIf(missing !== null)('browser mode in headless Chromium', () => {
  let home: string
  let engine: Engine
  let staging: TestSandbox
  let mode: BrowserMode
  let browser: Browser
  let page: Page
  const received: { where: string; text: string }[] = []

  beforeAll(async () => {
    ensureAppBuilt()
    home = mkdtempSync(join(tmpdir(), 'skill-runner-e2e-'))
    staging = await startTestSandbox({ tokens: [STAGING_TOKEN] })
    engine = createEngine({
      home,
      secretStore: new MemorySecretStore(),
      startBuiltInSandbox: async ({ dataDir }) => {
        const sandbox = await startSandbox({
          host: '127.0.0.1',
          port: 0,
          dbPath: join(dataDir, 'sandbox.db'),
          taskMs: 400,
        })
        return {
          url: sandbox.url,
          token: sandbox.demoToken ?? '',
          close: () => sandbox.close(),
        }
      },
    })
    await engine.addEnvironment({ name: 'Staging', baseUrl: staging.url, token: STAGING_TOKEN })
    await engine.connect({ env: BUILTIN_SANDBOX })
    mode = await startBrowserMode({
      engine: createShellEngine(
        engine,
        { name: 'Skill Runner', version: 'e2e', platform: 'linux' },
        // Never the real Downloads folder of the machine running the tests.
        { chooseDownloadFolder: async () => join(home, 'Downloads') },
      ),
      rendererDir,
    })
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
    page = await browser.newPage()
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
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await mode?.close()
    await engine?.close()
    await staging?.close()
    rmSync(home, { recursive: true, force: true })
  })

  it(
    'opens on the built-in Sandbox and its runs list updates live',
    { timeout: 90_000 },
    async () => {
      await page.goto(mode.url)
      await page.getByRole('heading', { name: 'Runs' }).waitFor()
      await page.getByText('Staging').first().waitFor()
      await page
        .getByText(/No runs yet|runs?/)
        .first()
        .waitFor()

      // A run submitted elsewhere (the command line, another window) appears by itself.
      const connection = await engine.connect({ env: BUILTIN_SANDBOX })
      const entry = await engine.submissions.journal(connection, {
        target: { kind: 'template', templateId: 'row-echo' },
        rows: [{ message: 'one' }, { message: 'two' }, { message: 'three' }],
      })
      const { runId } = await engine.submissions.send(connection, entry)
      const row = page.locator(`tr[data-run-id="${runId}"]`)
      await row.waitFor({ timeout: 30_000 })
      // ... and follows the run to its end without a click.
      // (The progress text says "0 of 3 rows succeeded" from the start: wait for the end state.)
      await row.getByText('3 of 3 rows succeeded').waitFor({ timeout: 30_000 })
      await row.getByText('Succeeded', { exact: true }).waitFor()
      expect(await row.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100')

      // Its outputs are saved with one click, and the row says so.
      await row.getByRole('button', { name: /Save the outputs/ }).click()
      await row.getByText('Saved 3 files').waitFor({ timeout: 30_000 })
      const folder = join(home, 'Downloads', runId)
      expect(readdirSync(folder).sort()).toEqual(['row-001', 'row-002', 'row-003'])
    },
  )

  it('checks a connection and lists another environment without ever sending its token', async () => {
    await page.getByText('Staging').first().click()
    await page
      .getByRole('heading', { name: /Staging/ })
      .first()
      .waitFor()
    await page.getByRole('heading', { name: 'Runs' }).waitFor()
    // Give the screen time to load Staging's runs and its checks.
    await page.waitForTimeout(1500)
    expect(received.some((r) => r.text.includes(staging.url))).toBe(true)
    expect(received.length).toBeGreaterThan(3)
    expect(received.some((r) => r.where.startsWith('ws '))).toBe(true)
    const leaks = received.filter(
      (r) => r.text.includes(STAGING_TOKEN) || r.text.includes(BUILTIN_SANDBOX_TOKEN),
    )
    expect(leaks.map((l) => l.where)).toEqual([])
  })
})
