// Real keychain: @napi-rs/keyring against the Secret Service (gnome-keyring in a private D-Bus session,
// started by scripts/test.mjs). Where no keychain answers, every test skips and says why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  loadKeyringStore,
  openSystemSecretStore,
  probeSecretStore,
  type KeyringSecretStore,
} from '../../src/core/secrets'

const SERVICE = `skill-runner-test-${process.pid}`
let store: KeyringSecretStore | null = null
let unavailable = ''

beforeAll(async () => {
  store = await loadKeyringStore(SERVICE)
  if (!store) unavailable = '@napi-rs/keyring is not installed'
  else unavailable = (await probeSecretStore(store)) ?? ''
  if (unavailable) console.log(`Keychain tests skipped: ${unavailable}.`)
})

afterAll(async () => {
  if (store && !unavailable) {
    await store.delete('https://a.example.com')
    await store.delete('https://b.example.com')
  }
})

describe('the OS keychain through @napi-rs/keyring', () => {
  it('keeps one token per origin, and forgets it on delete', async (ctx) => {
    if (unavailable) return ctx.skip()
    await store!.set('https://a.example.com', 'token-a')
    await store!.set('https://b.example.com', 'token-b')
    expect(await store!.get('https://a.example.com')).toBe('token-a')
    expect(await store!.get('https://b.example.com')).toBe('token-b')
    await store!.set('https://a.example.com', 'token-a2')
    expect(await store!.get('https://a.example.com')).toBe('token-a2')
    await store!.delete('https://a.example.com')
    expect(await store!.get('https://a.example.com')).toBeNull()
    expect(await store!.get('https://b.example.com')).toBe('token-b')
  })

  it('is the store the command line chooses when the keychain answers', async (ctx) => {
    if (unavailable) return ctx.skip()
    const system = await openSystemSecretStore()
    expect(system.problem).toBe('')
    expect(system.store.kind).toBe('keychain')
  })
})
