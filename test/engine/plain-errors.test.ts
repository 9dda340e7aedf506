// The engine says what went wrong in the user's words, so the window shows its text as is: no
// request paths, no JSON, no keychain (D-Bus) text. These cases were once checked on the window's
// text filter (test/renderer/prepare-selectors.test.ts); they are checked here, at the source,
// with the same raw inputs and the same expected words.
import { describe, expect, it } from 'vitest'
import { describeError } from '../../src/core/bridge/errors'
import { checkConnection, type Connection } from '../../src/core/environments/connection'
import {
  chooseSecretStore,
  KeyringSecretStore,
  SecretStoreError,
  tokenStoreNote,
  unavailableFallback,
} from '../../src/core/secrets'
import type { ApiClient } from '../../src/core/service'
import { refusedBy } from '../helpers/errors'

const KEYCHAIN_MESSAGE = 'The system keychain did not let Skill Runner save or read the token.'
const KEYCHAIN_NEXT_STEP =
  'Unlock the keychain (log in to the desktop session), then try again. If it stays unavailable, restart Skill Runner: it then keeps tokens encrypted in its own file.'

/** The keyring binding as it behaves without a reachable keychain: every call fails with `text`. */
function failingBinding(text: string) {
  const fail = () => Promise.reject(new Error(text))
  return {
    AsyncEntry: class {
      getPassword = fail
      setPassword = fail
      deletePassword = fail
    },
    findCredentialsAsync: fail,
  }
}

describe('keychain failures in words', () => {
  it.each([
    'Cannot autolaunch D-Bus without X11 $DISPLAY',
    "Couldn't access platform storage: AccessDenied",
    'zbus error: Failed to connect to address `unix:path=/run/user/0/bus`',
  ])('the binding’s “%s” reads as the keychain refusing', async (text) => {
    const store = new KeyringSecretStore(failingBinding(text), 'skill-runner-test')
    for (const call of [
      () => store.set('https://a.example', 'token'),
      () => store.get('https://a.example'),
      () => store.delete('https://a.example'),
    ]) {
      const error = await call().then(
        () => null,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(SecretStoreError)
      expect((error as SecretStoreError).message).toBe(KEYCHAIN_MESSAGE)
      expect((error as SecretStoreError).nextStep).toBe(KEYCHAIN_NEXT_STEP)
      // The binding's text is kept for a log only.
      expect(((error as SecretStoreError).cause as Error).message).toBe(text)
      // The window gets the same words, as an unavailable service, not as a bug.
      const shown = describeError(error)
      expect(shown.message).toBe(KEYCHAIN_MESSAGE)
      expect(shown.code).toBe('unreachable')
    }
  })

  it('a keychain passed over for a D-Bus problem is described without D-Bus text', async () => {
    const problem = 'org.freedesktop.DBus.Error.ServiceUnknown: The name is not activatable'
    const logged: string[] = []
    for (const keychain of [
      async () => new KeyringSecretStore(failingBinding(problem), 'skill-runner-test'),
      async () => {
        throw new Error(problem)
      },
    ]) {
      const chosen = await chooseSecretStore({
        keychain,
        fallback: unavailableFallback,
        log: (...parts) => logged.push(parts.join(' ')),
      })
      expect(chosen.view.kind).toBe('memory')
      expect(chosen.view.description).not.toMatch(/DBus|freedesktop/)
      expect(chosen.view.advice).not.toMatch(/DBus|freedesktop/)
      expect(tokenStoreNote(chosen.view)).not.toMatch(/DBus|freedesktop/)
    }
    // Why is kept for the log.
    expect(logged.every((line) => line.includes(problem))).toBe(true)
  })
})

describe('service errors in words', () => {
  it('a 404 says what happened without the request path', () => {
    const error = refusedBy(404, 'GET /svc/v1/models')
    expect(error.message).toBe('The service does not know what was asked for.')
    expect(error.message).not.toContain('/svc/v1')
    expect(error.request).toBe('GET /svc/v1/models')
  })

  it('the connection check’s steps name no status line, path or JSON', async () => {
    const client = {
      healthz: async () => ({ ok: true, status: 200, body: 'ok' }),
      version: async () => ({
        ok: true,
        status: 200,
        body: { name: 'skill-sandbox', version: '1.4.0' },
      }),
      models: async () => {
        throw refusedBy(404, 'GET /svc/v1/models')
      },
    } as unknown as ApiClient
    const connection = { name: 'S', origin: 'https://s.example', client } as Connection
    const view = { kind: 'memory', description: 'memory', canSaveTokens: true, advice: '' } as const
    const report = await checkConnection(connection, view)
    expect(report.steps.map((s) => s.message)).toEqual([
      'The service answered.',
      'It runs version skill-sandbox 1.4.0.',
      'The service does not know what was asked for. Check the id: it may be mistyped or belong to another environment.',
    ])
    for (const step of report.steps) expect(step.message).not.toMatch(/\/svc\/v1|\{|HTTP/)
  })
})
