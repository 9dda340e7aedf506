/**
 * The app's windows: which one is the main window (dialogs attach to it, a second launch
 * focuses it, the menu reloads it) and the set of all open ones (the Bridge answers only their
 * webContents; events and taskbar progress go to each). The main window remembers its size and
 * place between launches.
 */
import { BrowserWindow, screen } from 'electron'
import { APP_ENTRY_URL, windowOptions } from './security'
import { fitToScreens, loadWindowState, saveWindowState, type WindowState } from './window-state'

export interface AppWindowsOptions {
  preloadPath: string
  /** The window icon (Linux only; elsewhere the app bundle's icon is used). */
  iconPath?: string
  devTools: boolean
  log: (...parts: unknown[]) => void
}

export interface MainWindowOptions {
  /** The development server's address; the packaged app loads app:// instead. */
  devUrl: string | undefined
  /** Where the main window's size and place are kept. */
  stateFile: string
  /** Registers the listener for macOS's dock click (app 'activate'). */
  onActivate: (listener: () => void) => void
}

export class AppWindows {
  private mainWindow: BrowserWindow | null = null
  private readonly open = new Set<BrowserWindow>()

  constructor(private readonly options: AppWindowsOptions) {}

  /** The window dialogs belong to, or null when none is open. */
  get main(): BrowserWindow | null {
    return this.mainWindow
  }

  /** Every window, including ones being destroyed (callers check). */
  all(): Set<BrowserWindow> {
    return this.open
  }

  /** The webContents of the windows still alive, to push events to. */
  liveWebContents() {
    return [...this.open].filter((w) => !w.isDestroyed()).map((w) => w.webContents)
  }

  isKnownWebContents(id: number): boolean {
    return [...this.open].some((w) => !w.isDestroyed() && w.webContents.id === id)
  }

  /** A second launch of the app brings this one forward instead. */
  focusMain(): void {
    const window = this.mainWindow
    if (!window) return
    if (window.isMinimized()) window.restore()
    window.focus()
  }

  /** Opens the main window where it was last time, and again on macOS's dock click when none is. */
  async openMain({ devUrl, stateFile, onActivate }: MainWindowOptions): Promise<void> {
    const remembered = fitToScreens(
      await loadWindowState(stateFile),
      screen.getAllDisplays().map((d) => d.workArea),
    )
    const window = this.createWindow(remembered, devUrl)
    this.mainWindow = window
    this.open.add(window)
    window.on('close', () => this.remember(window, stateFile))
    window.on('closed', () => {
      this.open.delete(window)
      if (this.mainWindow === window) this.mainWindow = null
    })
    onActivate(() => {
      if (this.open.size === 0) {
        const again = this.createWindow(remembered, devUrl)
        this.open.add(again)
        this.mainWindow = again
        again.on('closed', () => this.open.delete(again))
      }
    })
  }

  private remember(window: BrowserWindow, stateFile: string): void {
    const state: WindowState = { ...window.getNormalBounds(), maximized: window.isMaximized() }
    void saveWindowState(stateFile, state).catch((error: unknown) =>
      this.options.log('could not save window size:', error),
    )
  }

  private createWindow(state: WindowState, devUrl: string | undefined): BrowserWindow {
    const { preloadPath, iconPath, devTools } = this.options
    const window = new BrowserWindow(
      windowOptions({
        preloadPath,
        bounds: state,
        devTools,
        ...(iconPath ? { iconPath } : {}),
      }),
    )
    if (state.maximized) window.maximize()
    window.once('ready-to-show', () => window.show())
    void window.loadURL(devUrl ?? APP_ENTRY_URL)
    return window
  }
}
