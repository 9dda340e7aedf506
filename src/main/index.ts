// The desktop app's composition root (Electron main process). It stays thin: it applies the
// security settings, serves the UI on app://, starts the engine (with Electron's net.fetch and
// the app's secret store) and the built-in Sandbox, serves the Bridge over IPC, and turns the
// engine's events into notifications and taskbar progress. start() reads as that list of steps;
// each step is a small function here or in its own file beside this one.
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { app, Menu, net, protocol, safeStorage, shell } from 'electron'
import { createBridgeService, type BridgeService } from '../core/bridge/service'
import { keepHeapNearLive } from '../core/heap'
import { createDispatch } from '../shared/bridge'
import { appSchemePrivileges } from './app-protocol'
import { createAppEngine } from './app-engine'
import { AppWindows } from './app-windows'
import { forwardEngineEvents } from './event-forwarding'
import { electronIpcMain, registerBridge } from './ipc'
import { menuTemplate } from './menu'
import { openExternalSafely } from './security'
import { electronShellDialogs } from './shell-dialogs'
import { openExternal, secureUiSession, uiPolicy } from './ui-session'

// Paths are worked out here, in the bundle's entry, so they hold wherever the bundler puts code.
const here = fileURLToPath(new URL('.', import.meta.url))
const HELP_URL = 'https://github.com/skill-runner/skill-runner#readme'

// Must happen before the app is ready.
protocol.registerSchemesAsPrivileged([appSchemePrivileges])

const log = (...parts: unknown[]) => console.error('[skill-runner]', ...parts)

/** The engine with Electron's network stack, safeStorage and dialogs; closed when the app quits. */
async function startEngine(windows: AppWindows) {
  keepHeapNearLive()
  const engine = await createAppEngine({
    version: app.getVersion(),
    fetch: (input, init) => net.fetch(input as string, init),
    safeStorage,
    log,
    ...electronShellDialogs(() => windows.main),
  })
  app.on('will-quit', () => {
    void engine.close()
  })
  return engine
}

/** The Bridge over IPC, answering only the app's own windows at the allowed origins. */
async function serveBridge(
  engine: Awaited<ReturnType<typeof createAppEngine>>,
  windows: AppWindows,
  allowedOrigins: string[],
): Promise<BridgeService> {
  const service = createBridgeService(engine.engine, { shell: 'electron', ...engine.bridge })
  const dispatch = createDispatch(service.handlers, {
    onUnexpectedError: (verb, error) => log(`bridge ${verb} failed:`, error),
  })
  registerBridge({
    ipc: await electronIpcMain(),
    dispatch,
    policy: { isKnownWebContents: (id) => windows.isKnownWebContents(id), allowedOrigins },
    onRefused: (verb, reason) => log(`refused bridge call ${verb}: ${reason}`),
  })
  return service
}

function installMenu(windows: AppWindows): void {
  const actions = {
    reload: () => windows.main?.webContents.reload(),
    openHelp: () => openExternalSafely(HELP_URL, openExternal),
    showDataFolder: () => void shell.openPath(app.getPath('userData')),
  }
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(menuTemplate(process.platform, actions, !app.isPackaged)),
  )
}

async function start(windows: AppWindows) {
  const devUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined
  const policy = uiPolicy(devUrl)
  secureUiSession(policy, join(here, '../renderer'), log)
  const engine = await startEngine(windows)
  const service = await serveBridge(engine, windows, policy.allowedOrigins)
  forwardEngineEvents(service, engine.engine, windows)
  installMenu(windows)
  await windows.openMain({
    devUrl,
    stateFile: join(app.getPath('userData'), 'window-state.json'),
    onActivate: (listener) => app.on('activate', listener),
  })
}

if (!app.requestSingleInstanceLock()) {
  // Another Skill Runner is running: it gets focus (second-instance below), this one leaves.
  app.quit()
} else {
  const windows = new AppWindows({
    preloadPath: join(here, '../preload/index.cjs'),
    ...(process.platform === 'linux'
      ? { iconPath: join(here, '../../build/icons/512x512.png') }
      : {}),
    devTools: !app.isPackaged,
    log,
  })
  app.on('second-instance', () => windows.focusMain())
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })

  app
    .whenReady()
    .then(() => start(windows))
    .catch((error: unknown) => {
      log('could not start:', error)
      app.quit()
    })
}
