// The safeStorage fallback store. Electron's safeStorage is replaced by a stand-in that really
// transforms the bytes, so the test can check that no token reaches the disk in plain text.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  createSafeStorageSecretStore,
  SecretStoreUnavailableError,
  type SafeStorageLike,
} from '../../src/main/safe-storage-secret-store'

const dir = mkdtempSync(join(tmpdir(), 'safe-storage-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function standIn(backend: string, available = true): SafeStorageLike {
  const flip = (b: Buffer) => Buffer.from(b.map((x) => x ^ 0x5a))
  return {
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend,
    encryptString: (plain) => Buffer.concat([Buffer.from('v10'), flip(Buffer.from(plain, 'utf8'))]),
    decryptString: (sealed) => flip(sealed.subarray(3)).toString('utf8'),
  }
}

/** A Linux store on the given safeStorage backend, with its file in its own folder under `dir`. */
function linuxStore(folder: string, backend: string) {
  const file = join(dir, folder, 'tokens.json')
  const store = createSafeStorageSecretStore({
    safeStorage: standIn(backend),
    file,
    platform: 'linux',
  })
  return { file, store }
}

describe('safeStorage secret store', () => {
  it('keeps tokens encrypted on disk and reads them back', async () => {
    const { file, store } = linuxStore('ok', 'gnome_libsecret')
    expect(store.usable).toBe(true)
    await store.set('https://a.example', 'tok-alpha-123')
    await store.set('https://b.example', 'tok-bravo-456')
    expect(await store.get('https://a.example')).toBe('tok-alpha-123')
    expect(await store.get('https://c.example')).toBeNull()
    const onDisk = readFileSync(file, 'utf8')
    expect(onDisk).not.toContain('tok-alpha-123')
    expect(onDisk).not.toContain('tok-bravo-456')
    await store.delete('https://a.example')
    expect(await store.get('https://a.example')).toBeNull()
    expect(await store.get('https://b.example')).toBe('tok-bravo-456')
    expect(readdirSync(join(dir, 'ok'))).toEqual(['tokens.json'])
  })

  it('loses no token when several are saved at once', async () => {
    const { store } = linuxStore('many', 'kwallet5')
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => store.set(`https://s${i}.example`, `tok-${i}`)),
    )
    for (let i = 0; i < 10; i++) expect(await store.get(`https://s${i}.example`)).toBe(`tok-${i}`)
  })

  it('refuses to save when Linux would only obscure the token (basic_text)', async () => {
    const { store } = linuxStore('plain', 'basic_text')
    expect(store.usable).toBe(false)
    expect(store.describe()).toMatch(/cannot be saved/)
    expect(store.advice()).toMatch(/GNOME Keyring or KWallet/)
    expect(store.advice()).not.toMatch(/apt install/)
    await expect(store.set('https://a.example', 'tok-alpha-123')).rejects.toThrow(
      SecretStoreUnavailableError,
    )
    await expect(store.set('https://a.example', 'tok-alpha-123')).rejects.toThrow(
      /Install a keychain \(GNOME Keyring or KWallet\)/,
    )
    expect(() => readdirSync(join(dir, 'plain'))).toThrow()
  })

  it('refuses to save when the system offers no encryption at all', async () => {
    const store = createSafeStorageSecretStore({
      safeStorage: standIn('', false),
      file: join(dir, 'none', 'tokens.json'),
      platform: 'win32',
    })
    expect(store.usable).toBe(false)
    await expect(store.set('https://a.example', 'tok')).rejects.toThrow(/not saved/)
    expect(await store.get('https://a.example')).toBeNull()
  })
})
