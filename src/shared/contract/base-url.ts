/**
 * The one rule for an environment's base URL, used by the Bridge's argument check, the engine
 * and the API client: https, or http only to this computer (loopback: 127.0.0.0/8, ::1,
 * localhost), because over plain http the API token would travel in clear text. No user name or
 * password in the address.
 */

export type BaseUrlCheck = { ok: true; url: URL } | { ok: false; reason: string }

/** Whether a URL's hostname is this computer (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '')
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host)
  return Boolean(v4 && Number(v4[1]) === 127 && v4.slice(2).every((n) => Number(n) <= 255))
}

export function checkBaseUrl(value: string): BaseUrlCheck {
  let url: URL
  try {
    url = new URL(value.trim())
  } catch {
    return {
      ok: false,
      reason: `“${value}” is not a web address. Enter the service address, starting with https:// (for example https://skills.example.com).`,
    }
  }
  if (url.username || url.password) {
    return {
      ok: false,
      reason:
        'Leave the user name and password out of the address; the token is asked for separately.',
    }
  }
  if (url.protocol === 'https:') return { ok: true, url }
  if (url.protocol === 'http:' && isLoopbackHostname(url.hostname)) return { ok: true, url }
  if (url.protocol === 'http:') {
    return {
      ok: false,
      reason: `Use https:// for ${url.host}: over plain http:// the API token would travel in clear text. Plain http:// is allowed only for a service on this computer (127.0.0.1 or localhost).`,
    }
  }
  return {
    ok: false,
    reason: `“${value}” is not a service address: it must start with https://.`,
  }
}
