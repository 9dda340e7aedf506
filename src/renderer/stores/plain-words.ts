/**
 * What the connection card and the token note say, in words a non-technical user reads: no
 * JSON, no request paths, no keychain or D-Bus error text. Plain functions, tested on their own.
 */
import type { ConnectionStep, TokenStorageView } from '../../shared/bridge'

/** Removes what only an engineer reads: request paths, raw JSON, low-level error text. */
export function withoutInternals(text: string): string {
  return (
    text
      // Request paths of the service's interface.
      .replace(/\s*\((?:GET|POST|PUT|DELETE)?\s*\/svc\/v\d+\/[^)\s]*\)/g, '')
      .replace(/\s*(?:GET|POST|PUT|DELETE)?\s*\/svc\/v\d+\/[^\s),]*/g, '')
      // JSON bodies.
      .replace(/\{[^{}]*"[^{}]*\}/g, '')
      // Node's error codes and system error names in brackets.
      .replace(
        /\s*\((?:[^()]*\b(?:E[A-Z]{3,}|errno|syscall|org\.freedesktop|DBus|D-Bus)\b[^()]*)\)/g,
        '',
      )
      .replace(/\s{2,}/g, ' ')
      .replace(/\s+([.,])/g, '$1')
      .trim()
  )
}

/** The version the service reports, from the /version answer's body, or ''. */
export function versionOf(body: unknown): string {
  if (typeof body === 'string') return body.trim().slice(0, 60)
  if (typeof body !== 'object' || body === null) return ''
  const b = body as Record<string, unknown>
  const pick = (...keys: string[]) => {
    for (const key of keys) {
      const v = b[key]
      if (typeof v === 'string' && v.trim()) return v.trim().slice(0, 60)
      if (typeof v === 'number') return String(v)
    }
    return ''
  }
  const version = pick('version', 'apiVersion', 'interfaceVersion', 'specVersion', 'build')
  const name = pick('name', 'service', 'product')
  return [name, version].filter(Boolean).join(' ')
}

/** One step of the connection check in words. */
export function stepWords(step: ConnectionStep): string {
  if (step.skipped) return 'Not tried: an earlier check did not pass.'
  switch (step.step) {
    case 'healthz':
      if (step.ok) return 'The service answered.'
      if (step.status > 0)
        return `Something answered at this address, but not as the service should (error ${step.status}). Check the address.`
      return withoutInternals(step.message)
    case 'version': {
      if (step.ok) {
        const version = versionOf(step.body)
        return version ? `It runs version ${version}.` : 'It told which version it runs.'
      }
      if (step.status > 0)
        return `It did not say which version it runs (error ${step.status}). It may not be a Skill Execution Service.`
      return withoutInternals(step.message)
    }
    case 'auth':
      if (step.ok) return 'The service accepted the token.'
      if (step.status === 401)
        return 'The service did not accept the token. Paste a new one with “Change token”.'
      if (step.status === 403) return 'The token works, but this account may not use the service.'
      return withoutInternals(step.message)
  }
  return withoutInternals(step.message)
}

/** Where tokens are kept, for the note under the environments. */
export function tokenStoreWords(view: TokenStorageView): { line: string; advice: string } {
  const advice = withoutInternals(view.advice)
  switch (view.kind) {
    case 'keychain':
      return { line: `Saved in ${withoutInternals(view.description)}.`, advice }
    case 'encrypted-file':
      return {
        line: 'Saved encrypted on this computer, because no system keychain answered.',
        advice,
      }
    case 'environment':
      return {
        line: `Taken from ${withoutInternals(view.description)}; nothing is saved.`,
        advice,
      }
    case 'memory':
      return {
        line: view.canSaveTokens
          ? 'Kept only while Skill Runner runs.'
          : 'Kept only while Skill Runner runs: they are forgotten when it closes, because no system keychain answered.',
        advice,
      }
  }
  return { line: withoutInternals(view.description), advice }
}

// (The keyring binding's own words: "zbus error: ...", "Couldn't access platform storage".)
const KEYCHAIN_TROUBLE =
  /D-?Bus|zbus|org\.freedesktop|Secret ?Service|libsecret|gnome-keyring|kwallet|platform (secure )?storage/i

/** An error as it is shown: keychain failures in words, and nothing internal in the text. */
export function errorWords<T extends { message: string; nextStep: string }>(error: T): T {
  if (KEYCHAIN_TROUBLE.test(error.message)) {
    return {
      ...error,
      message: 'The system keychain did not let Skill Runner save or read the token.',
      nextStep:
        'Unlock the keychain (log in to the desktop session), then try again. If it stays unavailable, restart Skill Runner: it then keeps tokens encrypted in its own file.',
    }
  }
  return {
    ...error,
    message: withoutInternals(error.message),
    nextStep: withoutInternals(error.nextStep),
  }
}
