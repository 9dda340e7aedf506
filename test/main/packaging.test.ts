// The packaging configuration: valid for electron-builder, with the security fuses flipped, the
// native modules unpacked, sources and tests left out, and real icons for every platform.
// tier: integration (loads electron-builder and its schema)
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const require = createRequire(import.meta.url)
const yaml = require('js-yaml') as { load(text: string): unknown }
const config = yaml.load(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<
  string,
  unknown
>

interface Validator {
  validateConfiguration(config: unknown, logger: unknown): Promise<void>
}
const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as Validator
const { DebugLogger } = require('builder-util') as {
  DebugLogger: new (enabled: boolean) => unknown
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const data = readFileSync(file)
  expect(data.subarray(1, 4).toString('ascii')).toBe('PNG')
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) }
}

describe('electron-builder configuration', () => {
  it('is accepted by electron-builder’s own schema', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined()
  })

  it('flips the fuses that would let anyone run the app as plain Node or inspect it', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
    })
  })

  it('builds NSIS, dmg, AppImage and deb', () => {
    const targets = JSON.stringify([config.win, config.mac, config.linux])
    for (const target of ['nsis', 'dmg', 'AppImage', 'deb']) expect(targets).toContain(target)
  })

  it('unpacks the native modules and leaves sources and tests out', () => {
    const unpack = config.asarUnpack as string[]
    expect(unpack.some((p) => p.includes('libsql'))).toBe(true)
    expect(unpack.some((p) => p.includes('@napi-rs'))).toBe(true)
    const files = (config.files as unknown[]).filter((f): f is string => typeof f === 'string')
    expect(files).toContain('!src/**')
    expect(files).toContain('!test/**')
    expect(files.filter((f) => !f.startsWith('!')).every((f) => !f.startsWith('src'))).toBe(true)
  })

  it('signs macOS builds with the hardened runtime, JIT only, and notarizes from the environment', () => {
    const mac = config.mac as Record<string, unknown>
    expect(mac.hardenedRuntime).toBe(true)
    expect(mac.notarize).toBe(true)
    const plist = readFileSync(join(root, String(mac.entitlements)), 'utf8')
    const granted = [...plist.matchAll(/<key>([^<]+)<\/key>\s*<true\/>/g)].map((m) => m[1])
    expect(granted).toEqual(['com.apple.security.cs.allow-jit'])
    // No secret in the file: credentials come from the environment.
    expect(readFileSync(join(root, 'electron-builder.yml'), 'utf8')).not.toMatch(
      /^\s*(password|appleId|teamId|apiKey)\s*:/im,
    )
  })

  it('packs each architecture with its own prebuilt libsql and keyring modules', async () => {
    const hook = (await import(join(root, String(config.beforePack)))) as {
      nativePackagesFor(platform: string, arch: string): { name: string }[]
    }
    const names = (p: string, a: string) => hook.nativePackagesFor(p, a).map((x) => x.name)
    expect(names('darwin', 'arm64')).toEqual([
      '@libsql/darwin-arm64',
      '@napi-rs/keyring-darwin-arm64',
    ])
    expect(names('darwin', 'x64')).toEqual(['@libsql/darwin-x64', '@napi-rs/keyring-darwin-x64'])
    expect(names('linux', 'arm64')).toEqual([
      '@libsql/linux-arm64-gnu',
      '@napi-rs/keyring-linux-arm64-gnu',
    ])
    expect(() => names('win32', 'arm64')).toThrow(/no prebuilt database module/)
    // Every architecture a target asks for has its modules; host packages are not copied as is.
    for (const [platform, key] of [
      ['darwin', 'mac'],
      ['linux', 'linux'],
      ['win32', 'win'],
    ] as const) {
      for (const target of (config[key] as { target: { arch: string[] }[] }).target) {
        for (const arch of target.arch) expect(names(platform, arch)).toHaveLength(2)
      }
    }
    const files = JSON.stringify(config.files)
    expect(files).toContain('!node_modules/@libsql/*-*/**')
    expect(files).toContain('build/native/current/node_modules')
    expect(config.npmRebuild).toBe(false)
  })

  it('has square icons of the sizes each platform needs', () => {
    expect(pngSize(join(root, 'build', 'icon.png'))).toEqual({ width: 1024, height: 1024 })
    for (const size of [512, 256]) {
      expect(pngSize(join(root, 'build', 'icons', `${size}x${size}.png`))).toEqual({
        width: size,
        height: size,
      })
    }
    expect(existsSync(join(root, 'resources', 'icons', '512x512.png'))).toBe(true)
  })
})
