// The window's security settings (Electron's checklist), tested through the pure functions
// the main process uses, with stand-ins for Electron's Session and WebContents.
import { describe, expect, it } from 'vitest'
import {
  APP_ORIGIN,
  applySessionSecurity,
  hardenWebContents,
  isAllowedUiUrl,
  isSafeExternalUrl,
  openExternalSafely,
  originOf,
  windowOptions,
  type NavigationEventLike,
  type SessionLike,
  type WebContentsLike,
} from '../../src/main/security'
import { contentSecurityPolicy } from '../../src/shared/bridge'

describe('windowOptions', () => {
  it('isolates the page from Node and Electron', () => {
    const prefs = windowOptions({ preloadPath: '/app/out/preload/index.cjs' }).webPreferences!
    expect(prefs.contextIsolation).toBe(true)
    expect(prefs.sandbox).toBe(true)
    expect(prefs.nodeIntegration).toBe(false)
    expect(prefs.nodeIntegrationInWorker).toBe(false)
    expect(prefs.nodeIntegrationInSubFrames).toBe(false)
    expect(prefs.webSecurity).toBe(true)
    expect(prefs.allowRunningInsecureContent).toBe(false)
    expect(prefs.webviewTag).toBe(false)
    expect(prefs.experimentalFeatures).toBe(false)
    expect(prefs.navigateOnDragDrop).toBe(false)
    expect(prefs.preload).toBe('/app/out/preload/index.cjs')
    expect(prefs.devTools).toBe(false)
  })

  it('uses the remembered size and place', () => {
    const options = windowOptions({
      preloadPath: 'p',
      bounds: { x: 10, y: 20, width: 900, height: 700 },
    })
    expect(options).toMatchObject({ x: 10, y: 20, width: 900, height: 700, show: false })
  })
})

function fakeSession() {
  const calls: {
    request?: Parameters<SessionLike['setPermissionRequestHandler']>[0]
    check?: (...args: unknown[]) => boolean
    device?: (...args: unknown[]) => boolean
    download?: (event: { preventDefault(): void }) => void
    before?: Parameters<SessionLike['webRequest']['onBeforeRequest']>[0]
    headers?: Parameters<SessionLike['webRequest']['onHeadersReceived']>[0]
  } = {}
  const session: SessionLike = {
    setPermissionRequestHandler: (h) => void (calls.request = h),
    setPermissionCheckHandler: (h) => void (calls.check = h),
    setDevicePermissionHandler: (h) => void (calls.device = h),
    on: (_event, listener) => void (calls.download = listener),
    webRequest: {
      onBeforeRequest: (l) => void (calls.before = l),
      onHeadersReceived: (l) => void (calls.headers = l),
    },
  }
  return { session, calls }
}

describe('applySessionSecurity', () => {
  const csp = contentSecurityPolicy()
  const setup = () => {
    const { session, calls } = fakeSession()
    const refused: string[] = []
    applySessionSecurity(session, {
      allowedOrigins: [APP_ORIGIN],
      csp,
      onRefused: (r) => refused.push(r),
    })
    return { calls, refused }
  }

  it('denies every permission request and check', () => {
    const { calls, refused } = setup()
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'openExternal',
      'fullscreen',
    ]) {
      let granted: boolean | undefined
      calls.request!({}, permission, (g) => (granted = g))
      expect(granted, permission).toBe(false)
    }
    expect(calls.check!({}, 'media', APP_ORIGIN, {})).toBe(false)
    expect(calls.device!({ deviceType: 'usb' })).toBe(false)
    expect(refused).toContain('permission request: media')
  })

  it('cancels downloads started by the page', () => {
    const { calls } = setup()
    let prevented = false
    calls.download!({ preventDefault: () => (prevented = true) })
    expect(prevented).toBe(true)
  })

  it('lets the UI load only its own files; any other network request is cancelled', () => {
    const { calls } = setup()
    const answer = (url: string) => {
      let response: { cancel?: boolean } = {}
      calls.before!({ url }, (r) => (response = r))
      return response.cancel === true ? 'cancelled' : 'allowed'
    }
    expect(answer(`${APP_ORIGIN}/index.html`)).toBe('allowed')
    expect(answer(`${APP_ORIGIN}/assets/index-abc.js`)).toBe('allowed')
    expect(answer('https://evil.example/steal')).toBe('cancelled')
    expect(answer('http://127.0.0.1:4010/svc/v1/users/me/runs')).toBe('cancelled')
    expect(answer('file:///etc/passwd')).toBe('cancelled')
    expect(answer('app://other-host/index.html')).toBe('cancelled')
  })

  it('puts its own CSP on every response, replacing any other', () => {
    const { calls } = setup()
    let headers: Record<string, string[] | string> | undefined
    calls.headers!(
      {
        url: `${APP_ORIGIN}/index.html`,
        responseHeaders: { 'content-security-policy': ['default-src *'], 'X-A': ['1'] },
      },
      (r) => (headers = r.responseHeaders),
    )
    expect(headers).toEqual({ 'X-A': ['1'], 'Content-Security-Policy': [csp] })
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain('unsafe')
  })
})

function fakeContents() {
  const listeners = new Map<string, (event: NavigationEventLike, url?: string) => void>()
  let openHandler: ((d: { url: string }) => { action: 'deny' }) | undefined
  const contents: WebContentsLike = {
    on: (event: string, listener: (event: NavigationEventLike, url?: string) => void) => {
      listeners.set(event, listener)
      return contents
    },
    setWindowOpenHandler: (h) => void (openHandler = h),
  } as WebContentsLike
  const fire = (name: string, url: string, extra: Partial<NavigationEventLike> = {}) => {
    let prevented = false
    listeners.get(name)!({ preventDefault: () => (prevented = true), ...extra }, url)
    return prevented
  }
  return { contents, fire, open: (url: string) => openHandler!({ url }) }
}

describe('hardenWebContents', () => {
  const setup = () => {
    const opened: string[] = []
    const fake = fakeContents()
    hardenWebContents(fake.contents, {
      allowedOrigins: [APP_ORIGIN],
      openExternal: async (url) => void opened.push(url),
    })
    return { ...fake, opened }
  }

  it('never navigates the window; https links open in the browser, others nowhere', () => {
    const { fire, opened } = setup()
    expect(fire('will-navigate', 'https://docs.example.com/help')).toBe(true)
    expect(fire('will-navigate', 'http://insecure.example.com/')).toBe(true)
    expect(fire('will-navigate', 'file:///etc/passwd')).toBe(true)
    expect(fire('will-navigate', `${APP_ORIGIN}/other.html`)).toBe(true)
    expect(opened).toEqual(['https://docs.example.com/help'])
  })

  it('denies new windows; only https URLs go to the browser', () => {
    const { open, opened } = setup()
    expect(open('https://example.com/terms')).toEqual({ action: 'deny' })
    expect(open('javascript:alert(1)')).toEqual({ action: 'deny' })
    expect(open('smb://server/share')).toEqual({ action: 'deny' })
    expect(opened).toEqual(['https://example.com/terms'])
  })

  it('refuses redirects away from the app, sub-frame navigation and webviews', () => {
    const { fire } = setup()
    expect(fire('will-redirect', 'https://evil.example/')).toBe(true)
    expect(fire('will-redirect', `${APP_ORIGIN}/index.html`)).toBe(false)
    expect(fire('will-frame-navigate', 'https://evil.example/', { isMainFrame: false })).toBe(true)
    expect(fire('will-attach-webview', '')).toBe(true)
  })
})

describe('external links', () => {
  it('allows only https URLs without credentials', () => {
    expect(isSafeExternalUrl('https://example.com/a?b=c')).toBe(true)
    expect(isSafeExternalUrl('http://example.com/')).toBe(false)
    expect(isSafeExternalUrl('file:///C:/Windows/system32/calc.exe')).toBe(false)
    expect(isSafeExternalUrl('javascript:alert(1)')).toBe(false)
    expect(isSafeExternalUrl('https://user:pw@example.com/')).toBe(false)
    expect(isSafeExternalUrl('not a url')).toBe(false)
  })

  it('opens nothing for refused URLs', () => {
    const opened: string[] = []
    const open = async (url: string) => void opened.push(url)
    expect(openExternalSafely('ms-msdt:/id PCWDiagnostic', open)).toBe(false)
    expect(openExternalSafely('https://example.com', open)).toBe(true)
    expect(opened).toEqual(['https://example.com/'])
  })
})

describe('origins', () => {
  it('reads the origin of the custom app scheme', () => {
    expect(originOf('app://skill-runner/index.html')).toBe(APP_ORIGIN)
    expect(originOf('http://localhost:5173/x')).toBe('http://localhost:5173')
    expect(originOf('nonsense')).toBeNull()
    expect(isAllowedUiUrl('data:image/png;base64,AAAA', [APP_ORIGIN])).toBe(true)
  })
})
