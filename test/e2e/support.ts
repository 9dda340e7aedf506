// Helpers of the end-to-end tests: where Chromium and Electron are, and building the app when
// out/ is missing or older than its sources (npm test builds it before the suite; a lone
// `npx vitest run test/e2e/x.test.ts` after a change builds it here).
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export const root = join(import.meta.dirname, '..', '..')
export const rendererDir = join(root, 'out', 'renderer')

export const CHROMIUM_PATH = process.env.SKILL_RUNNER_CHROMIUM ?? '/usr/bin/chromium'
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

declare module 'vitest' {
  export interface ProvidedContext {
    /** The WebSocket of the Chromium the e2e tier started for all its files (browser-server.ts). */
    chromiumEndpoint?: string
  }
}

/** Why Chromium cannot be used here, or null when it can. */
export function chromiumMissing(): string | null {
  return existsSync(CHROMIUM_PATH)
    ? null
    : `no Chromium at ${CHROMIUM_PATH} (install it with "apt-get install -y chromium" or set SKILL_RUNNER_CHROMIUM)`
}

/** The Electron executable when installed; never triggers a download (require('electron') would). */
export function electronBinary(): string | null {
  const pkg = join(root, 'node_modules', 'electron')
  const pathFile = join(pkg, 'path.txt')
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH
  // Like electron's own index.js: an override folder needs no path.txt.
  if (!existsSync(pathFile) && !override) return null
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : 'electron'
  const binary = join(override ?? join(pkg, 'dist'), relative)
  return existsSync(binary) ? binary : null
}

/** Builds out/ (app and CLI bundle) when it is missing or older than a source it is built from. */
export function ensureAppBuilt(): void {
  const result = spawnSync('node', [join(root, 'scripts', 'ensure-built.mjs')], { cwd: root, encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`the build failed:\n${result.stdout}\n${result.stderr}`)
}
