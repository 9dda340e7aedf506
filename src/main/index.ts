// The desktop app's composition root (Electron main process). It stays thin: it applies the
// security settings, serves the UI on app://, starts the engine (with Electron's net.fetch and
// the app's secret store) and the built-in Sandbox, serves the Bridge over IPC, and turns the
// engine's events into notifications and taskbar progress.
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  app,
  BrowserWindow,
  dialog,
  Menu,
  Notification,
  net,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
} from 'electron'
import { createBridgeService } from '../core/bridge/service'
import { contentSecurityPolicy, createDispatch } from '../shared/bridge'
import { appSchemePrivileges, createAppProtocolHandler } from './app-protocol'
import { createAppEngine } from './app-engine'
import { isOwnRun } from '../core/flows/history/history-view'
import { broadcastEvent, electronIpcMain, registerBridge } from './ipc'
import { menuTemplate } from './menu'
import {
  APP_ENTRY_URL,
  APP_ORIGIN,
  APP_SCHEME,
  UI_PARTITION,
  applySessionSecurity,
  hardenWebContents,
  openExternalSafely,
  originOf,
  windowOptions,
} from './security'
import { createShellFeedback } from './shell-feedback'
import { fitToScreens, loadWindowState, saveWindowState, type WindowState } from './window-state'

const here = fileURLToPath(new URL('.', import.meta.url))
const HELP_URL = 'https://github.com/skill-runner/skill-runner#readme'

// Must happen before the app is ready.
protocol.registerSchemesAsPrivileged([appSchemePrivileges])

const log = (...parts: unknown[]) => console.error('[skill-runner]', ...parts)

if (!app.requestSingleInstanceLock()) {
  // Another Skill Runner is running: it gets focus (second-instance below), this one leaves.
  app.quit()
} else {
  let mainWindow: BrowserWindow | null = null
  const windows = new Set<BrowserWindow>()

  app.on('second-instance', () => {
    if (!mainWindow) return
    if (mainWindow.isMinimized()) mainWindow.restore()
    mainWindow.focus()
  })
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })

  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      log('could not start:', error)
      app.quit()
    })

  async function start() {
    const devUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined
    const devOrigin = devUrl ? originOf(devUrl) : null
    const allowedOrigins = [
      APP_ORIGIN,
      ...(devOrigin ? [devOrigin, devOrigin.replace(/^http/, 'ws')] : []),
    ]
    // The development server injects an inline script for hot reload; only then is it allowed.
    const csp = devUrl
      ? contentSecurityPolicy({ connectSrc: allowedOrigins }).replace(
          "script-src 'self'",
          "script-src 'self' 'unsafe-inline'",
        )
      : contentSecurityPolicy()

    const uiSession = session.fromPartition(UI_PARTITION)
    applySessionSecurity(uiSession, {
      allowedOrigins,
      csp,
      onRefused: (what) => log('refused', what),
    })
    uiSession.protocol.handle(
      APP_SCHEME,
      createAppProtocolHandler({ rendererDir: join(here, '../renderer'), csp }),
    )
    const openExternal = (url: string) => shell.openExternal(url)
    app.on('web-contents-created', (_event, contents) => {
      hardenWebContents(contents, {
        allowedOrigins,
        openExternal,
        onRefused: (what) => log('refused', what),
      })
    })

    const engine = await createAppEngine({
      version: app.getVersion(),
      fetch: (input, init) => net.fetch(input as string, init),
      safeStorage,
      log,
      chooseSavePath: async (suggestedName, title) => {
        const options = {
          title,
          buttonLabel: 'Save',
          defaultPath: join(app.getPath('documents'), suggestedName),
          filters: [{ name: 'Excel workbook', extensions: ['xlsx'] }],
          properties: ['createDirectory' as const, 'showOverwriteConfirmation' as const],
        }
        const answer = mainWindow
          ? await dialog.showSaveDialog(mainWindow, options)
          : await dialog.showSaveDialog(options)
        return answer.canceled || !answer.filePath ? null : answer.filePath
      },
      openPath: async (path) => {
        const problem = await shell.openPath(path)
        if (problem) throw new Error(problem)
      },
      showItemInFolder: (path) => shell.showItemInFolder(path),
      chooseFolder: async (title, current) => {
        const options = {
          title,
          buttonLabel: 'Save outputs here',
          defaultPath: current,
          properties: ['openDirectory' as const, 'createDirectory' as const],
        }
        const answer = mainWindow
          ? await dialog.showOpenDialog(mainWindow, options)
          : await dialog.showOpenDialog(options)
        return answer.canceled ? null : (answer.filePaths[0] ?? null)
      },
      downloadsFolder: app.getPath('downloads'),
    })
    app.on('will-quit', () => {
      void engine.close()
    })

    const service = createBridgeService(engine.engine, { shell: 'electron', ...engine.bridge })
    const dispatch = createDispatch(service.handlers, {
      onUnexpectedError: (verb, error) => log(`bridge ${verb} failed:`, error),
    })
    registerBridge({
      ipc: await electronIpcMain(),
      dispatch,
      policy: {
        isKnownWebContents: (id) =>
          [...windows].some((w) => !w.isDestroyed() && w.webContents.id === id),
        allowedOrigins,
      },
      onRefused: (verb, reason) => log(`refused bridge call ${verb}: ${reason}`),
    })

    const feedback = createShellFeedback({
      windows: () => windows,
      shouldNotify: (event) => {
        // Only runs sent from this computer, and only when the user wants notices.
        try {
          const core = engine.engine
          return (
            core.settings().read().notifications &&
            isOwnRun(core, event.environment, event.run.runId)
          )
        } catch {
          return false
        }
      },
      notify: (content) => {
        if (Notification.isSupported()) new Notification({ ...content, silent: false }).show()
      },
      setBadge: (count) => {
        if (process.platform === 'darwin') app.dock?.setBadge(count > 0 ? String(count) : '')
      },
    })
    service.subscribe((event, payload) => {
      broadcastEvent(
        [...windows].filter((w) => !w.isDestroyed()).map((w) => w.webContents),
        event,
        payload as never,
      )
      if (event === 'activity')
        feedback.onActivity(payload as Parameters<typeof feedback.onActivity>[0])
      if (event === 'runEnded')
        feedback.onRunEnded(payload as Parameters<typeof feedback.onRunEnded>[0])
    })

    const reload = () => mainWindow?.webContents.reload()
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(
        menuTemplate(
          process.platform,
          {
            reload,
            openHelp: () => openExternalSafely(HELP_URL, openExternal),
            showDataFolder: () => void shell.openPath(app.getPath('userData')),
          },
          !app.isPackaged,
        ),
      ),
    )

    const stateFile = join(app.getPath('userData'), 'window-state.json')
    const remembered = fitToScreens(
      await loadWindowState(stateFile),
      screen.getAllDisplays().map((d) => d.workArea),
    )
    mainWindow = createWindow(remembered, devUrl)
    windows.add(mainWindow)
    const window = mainWindow
    window.on('close', () => {
      const state: WindowState = { ...window.getNormalBounds(), maximized: window.isMaximized() }
      void saveWindowState(stateFile, state).catch((error: unknown) =>
        log('could not save window size:', error),
      )
    })
    window.on('closed', () => {
      windows.delete(window)
      if (mainWindow === window) mainWindow = null
    })
    app.on('activate', () => {
      if (windows.size === 0) {
        const again = createWindow(remembered, devUrl)
        windows.add(again)
        mainWindow = again
        again.on('closed', () => windows.delete(again))
      }
    })
  }

  function createWindow(state: WindowState, devUrl: string | undefined): BrowserWindow {
    const window = new BrowserWindow(
      windowOptions({
        preloadPath: join(here, '../preload/index.cjs'),
        bounds: state,
        devTools: !app.isPackaged,
        ...(process.platform === 'linux'
          ? { iconPath: join(here, '../../build/icons/512x512.png') }
          : {}),
      }),
    )
    if (state.maximized) window.maximize()
    window.once('ready-to-show', () => window.show())
    void window.loadURL(devUrl ?? APP_ENTRY_URL)
    return window
  }
}
