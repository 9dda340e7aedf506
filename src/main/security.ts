/**
 * The window's security settings, following Electron's security checklist. Everything here is a
 * pure function of its inputs (Electron objects are passed in), so the settings are tested
 * without launching Electron (test/main/security.test.ts).
 */
import type { BrowserWindowConstructorOptions, Rectangle } from 'electron'

/** The one origin the UI is served from in the packaged app (see app-protocol.ts). */
export const APP_SCHEME = 'app'
export const APP_HOST = 'skill-runner'
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`
/** The UI's own session: separate from the default session the engine's net.fetch uses. */
export const UI_PARTITION = 'skill-runner-ui'

export interface WindowOptionsInput {
  preloadPath: string
  bounds?: Partial<Rectangle>
  iconPath?: string
  backgroundColor?: string
  /** DevTools only in development builds. */
  devTools?: boolean
}

export function windowOptions(input: WindowOptionsInput): BrowserWindowConstructorOptions {
  const { bounds = {} } = input
  const options: BrowserWindowConstructorOptions = {
    width: bounds.width ?? 1200,
    height: bounds.height ?? 800,
    minWidth: 760,
    minHeight: 520,
    show: false,
    title: 'Skill Runner',
    backgroundColor: input.backgroundColor ?? '#f6f7f9',
    webPreferences: {
      preload: input.preloadPath,
      partition: UI_PARTITION,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      devTools: input.devTools ?? false,
    },
  }
  if (bounds.x !== undefined && bounds.y !== undefined) {
    options.x = bounds.x
    options.y = bounds.y
  }
  if (input.iconPath) options.icon = input.iconPath
  return options
}

/** The parts of an Electron Session this module configures. */
export interface SessionLike {
  setPermissionRequestHandler(
    handler: (
      webContents: unknown,
      permission: string,
      callback: (granted: boolean) => void,
    ) => void,
  ): void
  setPermissionCheckHandler(handler: (...args: unknown[]) => boolean): void
  setDevicePermissionHandler?(handler: (...args: unknown[]) => boolean): void
  on(event: 'will-download', listener: (event: { preventDefault(): void }) => void): unknown
  webRequest: {
    onBeforeRequest(
      listener: (
        details: { url: string },
        callback: (response: { cancel?: boolean }) => void,
      ) => void,
    ): void
    onHeadersReceived(
      listener: (
        details: { url: string; responseHeaders?: Record<string, string[] | string> },
        callback: (response: {
          responseHeaders?: Record<string, string[] | string>
          cancel?: boolean
        }) => void,
      ) => void,
    ): void
  }
}

export interface SessionSecurityOptions {
  /** Origins the UI may load anything from: the app origin (and the dev server in development). */
  allowedOrigins: string[]
  /** The Content-Security-Policy set on every response the UI receives. */
  csp: string
  /** Called with each refused permission or request, for the log. */
  onRefused?: (what: string) => void
}

/** URLs the UI may load: its own origins, plus inline data the browser makes itself. */
export function isAllowedUiUrl(url: string, allowedOrigins: readonly string[]): boolean {
  if (url.startsWith('data:') || url.startsWith('blob:') || url.startsWith('devtools://'))
    return true
  const origin = originOf(url)
  return origin !== null && allowedOrigins.includes(origin)
}

/**
 * The origin of a URL, or null. Custom schemes (app://skill-runner) have an opaque origin in
 * the URL API, so their origin is rebuilt from the scheme and host.
 */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url)
    if (u.origin && u.origin !== 'null') return u.origin
    if (u.host) return `${u.protocol}//${u.host}`
    return null
  } catch {
    return null
  }
}

/**
 * Denies every permission (camera, notifications from the page, geolocation, ...), every
 * download the page starts, and every request outside the app's own origin; sets the CSP.
 */
export function applySessionSecurity(session: SessionLike, options: SessionSecurityOptions): void {
  const refused = options.onRefused ?? (() => {})
  session.setPermissionRequestHandler((_webContents, permission, callback) => {
    refused(`permission request: ${permission}`)
    callback(false)
  })
  session.setPermissionCheckHandler(() => false)
  session.setDevicePermissionHandler?.(() => false)
  session.on('will-download', (event) => {
    refused('download started by the page')
    event.preventDefault()
  })
  session.webRequest.onBeforeRequest((details, callback) => {
    if (isAllowedUiUrl(details.url, options.allowedOrigins)) {
      callback({})
    } else {
      refused(`network request to ${originOf(details.url) ?? 'an invalid address'}`)
      callback({ cancel: true })
    }
  })
  session.webRequest.onHeadersReceived((details, callback) => {
    const headers = { ...(details.responseHeaders ?? {}) }
    for (const key of Object.keys(headers)) {
      if (key.toLowerCase() === 'content-security-policy') delete headers[key]
    }
    headers['Content-Security-Policy'] = [options.csp]
    callback({ responseHeaders: headers })
  })
}

/** Only https links open outside the app; anything else (file:, javascript:, http:) is refused. */
export function isSafeExternalUrl(url: string): boolean {
  try {
    const u = new URL(url)
    return u.protocol === 'https:' && u.hostname !== '' && !u.username && !u.password
  } catch {
    return false
  }
}

/** The one way the app opens a link in the user's browser. */
export function openExternalSafely(
  url: string,
  openExternal: (url: string) => Promise<void>,
): boolean {
  if (!isSafeExternalUrl(url)) return false
  openExternal(new URL(url).href).catch(() => {})
  return true
}

/** The parts of an Electron WebContents this module configures. */
export interface WebContentsLike {
  on(
    event: 'will-navigate' | 'will-redirect' | 'will-frame-navigate',
    listener: (event: NavigationEventLike, url?: string) => void,
  ): unknown
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void
}

export interface NavigationEventLike {
  preventDefault(): void
  url?: string
  isMainFrame?: boolean
}

export interface NavigationOptions {
  allowedOrigins: string[]
  openExternal: (url: string) => Promise<void>
  onRefused?: (what: string) => void
}

/**
 * The window never navigates away from the app and never opens windows: a link to an https
 * page opens in the user's browser instead; everything else is refused.
 */
export function hardenWebContents(contents: WebContentsLike, options: NavigationOptions): void {
  const refused = options.onRefused ?? (() => {})
  const targetOf = (event: NavigationEventLike, url?: string) => url ?? event.url ?? ''
  // The page itself never navigates (it is a single page); a clicked https link opens outside.
  contents.on('will-navigate', (event, url) => {
    event.preventDefault()
    const target = targetOf(event, url)
    if (!openExternalSafely(target, options.openExternal)) {
      refused(`navigation to ${originOf(target) ?? 'an invalid address'}`)
    }
  })
  // Sub-frames are also refused by the CSP (frame-src 'none'); this is the second lock.
  contents.on('will-frame-navigate', (event, url) => {
    if (event.isMainFrame === true) return
    event.preventDefault()
    refused(`frame navigation to ${originOf(targetOf(event, url)) ?? 'an invalid address'}`)
  })
  // Loads started by the app (loadURL) may only end on the app's own origin.
  contents.on('will-redirect', (event, url) => {
    const target = targetOf(event, url)
    if (isAllowedUiUrl(target, options.allowedOrigins)) return
    event.preventDefault()
    refused(`redirect to ${originOf(target) ?? 'an invalid address'}`)
  })
  contents.on('will-attach-webview', (event) => {
    event.preventDefault()
    refused('embedded webview')
  })
  contents.setWindowOpenHandler(({ url }) => {
    if (!openExternalSafely(url, options.openExternal)) {
      refused(`new window for ${originOf(url) ?? 'an invalid address'}`)
    }
    return { action: 'deny' }
  })
}
