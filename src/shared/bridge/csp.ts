/**
 * The Content-Security-Policy of the UI. The renderer makes no network calls of its own: every
 * request goes through the Bridge, so only the app's own origin is allowed (plus, in browser
 * mode, the WebSocket that carries the Bridge's events).
 */
export function contentSecurityPolicy(options: { connectSrc?: string[] } = {}): string {
  const connect = ["'self'", ...(options.connectSrc ?? [])].join(' ')
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
    "worker-src 'none'",
  ].join('; ')
}
