// Which token store the desktop app picks. (The real keychain is exercised in test/keychain.)
import { describe, expect, it } from 'vitest'
import {
  chooseSecretStore,
  type FallbackTokenStore,
  type TokenStore,
} from '../../src/main/secret-store'

const keychain = (getFails: boolean): TokenStore => ({
  kind: 'keychain',
  describe: () => 'Kept in your system keychain.',
  get: async () => {
    if (getFails) throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')
    return null
  },
  set: async () => {},
  delete: async () => {},
})

const fallback = (usable: boolean): FallbackTokenStore => ({
  kind: 'encrypted-file',
  usable,
  describe: () =>
    usable ? 'Encrypted in the app’s data folder.' : 'Tokens cannot be saved: no keychain.',
  advice: () => (usable ? '' : 'Install gnome-keyring.'),
  get: async () => null,
  set: async () => {},
  delete: async () => {},
})

describe('chooseSecretStore', () => {
  it('uses the system keychain when it answers', async () => {
    const chosen = await chooseSecretStore({
      keychain: async () => keychain(false),
      fallback: () => fallback(true),
    })
    expect(chosen.view).toEqual({
      kind: 'keychain',
      description: 'Kept in your system keychain.',
      canSaveTokens: true,
      advice: '',
    })
  })

  it('falls back to the encrypted file when the keychain binding loads but no keychain service answers', async () => {
    const chosen = await chooseSecretStore({
      keychain: async () => keychain(true),
      fallback: () => fallback(true),
    })
    expect(chosen.view.kind).toBe('encrypted-file')
    expect(chosen.view.canSaveTokens).toBe(true)
  })

  it('falls back when the keychain binding cannot load, and passes on what to install when nothing is secure', async () => {
    const chosen = await chooseSecretStore({
      keychain: async () => {
        throw new Error("Cannot find module '@napi-rs/keyring'")
      },
      fallback: () => fallback(false),
    })
    expect(chosen.view).toMatchObject({
      kind: 'encrypted-file',
      canSaveTokens: false,
      advice: 'Install gnome-keyring.',
    })
  })
})
