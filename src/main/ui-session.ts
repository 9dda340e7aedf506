/**
 * The UI's security as one policy: the origins it may load from (app:// and, in development, the
 * dev server) and its Content-Security-Policy; then that policy applied to the UI's own session,
 * to the app:// protocol that serves the built renderer, and to every webContents created.
 */
import { app, session, shell } from 'electron'
import { contentSecurityPolicy } from '../shared/bridge'
import { createAppProtocolHandler } from './app-protocol'
import {
  APP_ORIGIN,
  APP_SCHEME,
  UI_PARTITION,
  applySessionSecurity,
  hardenWebContents,
  originOf,
} from './security'

export interface UiPolicy {
  allowedOrigins: string[]
  csp: string
}

export function uiPolicy(devUrl: string | undefined): UiPolicy {
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
  return { allowedOrigins, csp }
}

/** Opens a link in the user's browser (callers pass only URLs that openExternalSafely allowed). */
export const openExternal = (url: string) => shell.openExternal(url)

export function secureUiSession(
  policy: UiPolicy,
  rendererDir: string,
  log: (...parts: unknown[]) => void,
): void {
  const { allowedOrigins, csp } = policy
  const uiSession = session.fromPartition(UI_PARTITION)
  applySessionSecurity(uiSession, {
    allowedOrigins,
    csp,
    onRefused: (what) => log('refused', what),
  })
  uiSession.protocol.handle(APP_SCHEME, createAppProtocolHandler({ rendererDir, csp }))
  app.on('web-contents-created', (_event, contents) => {
    hardenWebContents(contents, {
      allowedOrigins,
      openExternal,
      onRefused: (what) => log('refused', what),
    })
  })
}
