// The app every browser end-to-end test drives: a temporary home, the real engine with the
// built-in Sandbox, the real web server of browser mode over the built renderer, and a page in
// headless Chromium. One place to start it and one to take it down, so the tests only say what
// differs (how fast runs go, extra sandboxes, the page's size).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, inject } from 'vitest'
import { createEngine, type Engine } from '../../src/core/engine'
import type { ChosenSecretStore } from '../../src/core/secrets'
import type { RunWatchOptions } from '../../src/core/bridge/types'
import { BUILTIN_SANDBOX } from '../../src/core/environments/environments'
import type { Sandbox, SandboxOptions } from '../../src/sandbox'
import { startBrowserMode, type BrowserMode } from '../../src/web/app'
import { inProcessBuiltInSandbox, testEngine } from '../helpers/engine'
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox'
import { standIn } from '../helpers/stand-in'
import { defined } from '../../src/shared/defined'
import {
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  chromiumMissing,
  ensureAppBuilt,
  rendererDir,
} from './support'

/** A second environment: its own test sandbox, added to the engine under `name`. */
export interface ExtraEnvironment {
  name: string
  token: string
  sandbox?: SandboxOptions
}

/** The page's size unless a test gives its own: the desktop window's usual size. */
const WINDOW = { width: 1280, height: 800 }

export interface E2eAppOptions {
  /** Start of the temporary home folder's name. */
  homePrefix: string
  /** How long the built-in Sandbox takes per task. */
  taskMs: number
  /** The default outputs folder, inside the home (never the machine's Downloads folder). */
  outputsFolder?: string
  /** Sandboxes started before the engine and added to it as environments, in this order. */
  environments?: ExtraEnvironment[]
  /** Runs once connected to the built-in Sandbox, before browser mode starts. */
  afterConnect?: (
    engine: Engine,
    connection: Awaited<ReturnType<Engine['connect']>>,
  ) => Promise<void>
  /** Where the engine keeps tokens (memory by default), e.g. a computer without a keychain. */
  secrets?: () => Promise<ChosenSecretStore>
  /** Given the built-in Sandbox once it started (its `injectFault` slows or breaks requests). */
  builtInSandbox?: (sandbox: Sandbox) => void
  /** The browser context of the page where it differs (Playwright takes downloads anyway). */
  context?: BrowserContextOptions
  /**
   * A Chromium of this file's own, not the tier's shared one. Playwright treats a browser it
   * connected to as remote and hands it a chosen file's bytes rather than the file: a file
   * changed on disk then reads as it was, where a user's browser sees the change.
   */
  ownBrowser?: boolean
  /** The runs watcher's paces where the app's would make the test wait (an outage's 30 s). */
  watch?: RunWatchOptions
}

export interface E2eApp {
  readonly home: string
  readonly engine: Engine
  readonly mode: BrowserMode
  readonly browser: Browser
  readonly page: Page
  /** The extra environments' sandboxes, by name. */
  readonly sandboxes: Record<string, TestSandbox>
  /** Stops the engine and its server and starts them again on the same home; the page stays. */
  restart(): Promise<void>
  /** Closes the browser, the server, the engine and the sandboxes, and deletes the home. */
  close(): Promise<void>
}

export async function startE2eApp(options: E2eAppOptions): Promise<E2eApp> {
  // The tier's setup checked the build and started one Chromium; a file run alone does both.
  const shared = options.ownBrowser ? undefined : inject('chromiumEndpoint')
  if (!inject('chromiumEndpoint')) ensureAppBuilt()
  const home = mkdtempSync(join(tmpdir(), options.homePrefix))
  const sandboxes: Record<string, TestSandbox> = {}
  let engine: Engine | undefined
  let mode: BrowserMode | undefined
  let browser: Browser | undefined
  let page: Page | undefined

  /** The first start also adds the extra environments and runs `afterConnect`. */
  async function startApp(first: boolean) {
    const startBuiltInSandbox = inProcessBuiltInSandbox(
      { taskMs: options.taskMs },
      options.builtInSandbox,
    )
    const secrets = await options.secrets?.()
    engine = secrets
      ? createEngine({
          home,
          secretStore: secrets.store,
          secretStoreView: secrets.view,
          startBuiltInSandbox,
        })
      : testEngine(home, { startBuiltInSandbox })
    if (first) {
      for (const env of options.environments ?? []) {
        const baseUrl = sandboxes[env.name].url
        await engine.addEnvironment({ name: env.name, baseUrl, token: env.token })
      }
    }
    const connection = await engine.connect({ env: BUILTIN_SANDBOX })
    if (first) await options.afterConnect?.(engine, connection)
    mode = await startBrowserMode({
      engine,
      app: { name: 'Skill Runner', version: 'e2e', platform: 'linux' },
      dialogs: { defaultOutputsFolder: () => join(home, options.outputsFolder ?? 'Downloads') },
      rendererDir,
      ...defined({ watch: options.watch }),
    })
  }

  async function stopApp() {
    await mode?.close()
    await engine?.close()
  }

  async function close() {
    await browser?.close()
    await stopApp()
    for (const sandbox of Object.values(sandboxes)) await sandbox.close()
    rmSync(home, { recursive: true, force: true })
  }

  try {
    for (const env of options.environments ?? []) {
      sandboxes[env.name] = await startTestSandbox({ ...env.sandbox, tokens: [env.token] })
    }
    await startApp(true)
    browser = shared
      ? await chromium.connect(shared)
      : await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
    page = await (await browser.newContext({ viewport: WINDOW, ...options.context })).newPage()
  } catch (error) {
    await close().catch(() => {})
    throw error
  }

  return {
    home,
    sandboxes,
    get engine() {
      return engine as Engine
    },
    get mode() {
      return mode as BrowserMode
    },
    get browser() {
      return browser as Browser
    },
    get page() {
      return page as Page
    },
    async restart() {
      await stopApp()
      await startApp(false)
    },
    close,
  }
}

/** What a describe block's tests use: the app and its page, live once the tests start. */
export interface E2eHandles {
  app: E2eApp
  page: Page
}

/**
 * Starts the app before the tests of the enclosing describe block and closes it after them.
 * The handles it returns stand for the app and its page from then on (reading them earlier is a
 * mistake in the test, said as such); `started` runs once, for what a test sets up on the page
 * before any test. Starting may build the app first, hence the long default time allowed.
 */
export function useE2eApp(
  options: E2eAppOptions,
  started?: (app: E2eApp) => void,
  startTimeoutMs = 180_000,
): E2eHandles {
  let app: E2eApp | undefined
  beforeAll(async () => {
    app = await startE2eApp(options)
    started?.(app)
  }, startTimeoutMs)
  afterAll(async () => {
    await app?.close()
  })
  const live = () => {
    if (!app) throw new Error('the end-to-end app is used before it started (beforeAll)')
    return app
  }
  return { app: standIn(live), page: standIn(() => live().page) }
}

/**
 * How long a browser test may take unless it says otherwise: a journey through several screens,
 * each photographed in both themes, with a run watched to its end.
 */
const JOURNEY_MS = 180_000

/**
 * A describe block of browser tests, skipped with its reason printed where this machine has no
 * Chromium. `what` names the test in that line ("Keyboard end-to-end test skipped: ...").
 */
export function describeInChromium(what: string, title: string, body: () => void): void {
  const missing = chromiumMissing()
  if (missing) console.log(`${what} end-to-end test skipped: ${missing}.`)
  describe.skipIf(missing !== null)(title, { timeout: JOURNEY_MS }, body)
}
