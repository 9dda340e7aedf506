// The packaging configuration: valid for electron-builder, with the security fuses flipped, the
// native modules unpacked, sources and tests left out, and real icons for every platform.
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
    expect(unpack.some((p) => p.includes('keytar'))).toBe(true)
    const files = config.files as string[]
    expect(files).toContain('!src/**')
    expect(files).toContain('!test/**')
    expect(files.filter((f) => !f.startsWith('!')).every((f) => !f.startsWith('src'))).toBe(true)
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
