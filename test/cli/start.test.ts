// `npm start` (scripts/start.mjs): the desktop app where Electron can run, otherwise browser
// mode after saying exactly why. Electron 45 downloads its binary on first use, so a first start
// on a computer with a display tries that download; here it goes to a local "mirror" that
// answers 404 (a real HTTP server), so the test sees the request and the reason printed.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { electronBinary, ensureAppBuilt, root } from '../e2e/support'
import { until } from '../helpers/wait'

const home = mkdtempSync(join(tmpdir(), 'skill-runner-start-'))
let mirror: Server
let mirrorUrl = ''
const requested: string[] = []

beforeAll(async () => {
  ensureAppBuilt()
  mirror = createServer((req, res) => {
    requested.push(req.url ?? '')
    res.writeHead(404).end('not here')
  })
  mirror.listen(0, '127.0.0.1')
  await once(mirror, 'listening')
  mirrorUrl = `http://127.0.0.1:${(mirror.address() as AddressInfo).port}/`
}, 120_000)

afterAll(() => {
  mirror?.close()
  rmSync(home, { recursive: true, force: true })
})

/** Runs `npm start` until browser mode prints its address; returns what it said on stderr. */
async function startUntilBrowserMode(
  env: NodeJS.ProcessEnv,
): Promise<{ stderr: string; url: string }> {
  const child = spawn(process.execPath, ['scripts/start.mjs', '--no-open', '--port', '0'], {
    cwd: root,
    env: {
      ...process.env,
      DISPLAY: '',
      WAYLAND_DISPLAY: '',
      SKILL_RUNNER_HOME: home,
      electron_config_cache: join(home, 'electron-cache'),
      // CI exports this for `npm ci`; each test here says for itself whether it is set.
      ELECTRON_SKIP_BINARY_DOWNLOAD: undefined,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t))
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (t: string) => {
        stdout += t
        const match = /app at (\S+)/.exec(stdout)
        if (match) resolve(match[1]!)
      })
      child.once('exit', (code) => reject(new Error(`npm start exited (${code}): ${stderr}`)))
    })
    // The closing advice follows the address, on stderr.
    await until(() => stderr.includes('press Ctrl+C to stop'))
    return { stderr, url }
  } finally {
    child.kill('SIGTERM')
    if (child.exitCode === null) await once(child, 'exit')
  }
}

const installed = electronBinary()

describe.skipIf(process.platform !== 'linux')('npm start on Linux', () => {
  it('without a display says so and serves browser mode', { timeout: 60_000 }, async () => {
    const { stderr, url } = await startUntilBrowserMode({ ELECTRON_MIRROR: mirrorUrl })
    expect(stderr).toContain('no graphical display')
    expect(stderr).toContain('browser mode')
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?s=/)
    // No display, no download: it would not help.
    expect(requested).toEqual([])
  })

  it.skipIf(installed)(
    'with a display but no Electron binary, downloads it on first use, and says why that failed',
    { timeout: 60_000 },
    async () => {
      const { stderr } = await startUntilBrowserMode({
        DISPLAY: ':99',
        ELECTRON_MIRROR: mirrorUrl,
      })
      const version = (await import('electron/package.json', { with: { type: 'json' } })).default
        .version as string
      expect(requested, stderr).toContain(
        `/v${version}/electron-v${version}-linux-${process.arch}.zip`,
      )
      expect(stderr).toContain(`Electron ${version} could not be downloaded: Response code 404`)
      expect(stderr).toContain('browser mode')
    },
  )

  it.skipIf(installed)(
    'never downloads when ELECTRON_SKIP_BINARY_DOWNLOAD is set, and says so',
    { timeout: 60_000 },
    async () => {
      requested.length = 0
      const { stderr } = await startUntilBrowserMode({
        DISPLAY: ':99',
        ELECTRON_MIRROR: mirrorUrl,
        ELECTRON_SKIP_BINARY_DOWNLOAD: '1',
      })
      expect(stderr).toContain('ELECTRON_SKIP_BINARY_DOWNLOAD is set')
      expect(requested).toEqual([])
    },
  )
})

/** A stand-in for Electron's binary in its own dist folder (ELECTRON_OVERRIDE_DIST_PATH). */
function fakeElectron(name: string, body: string): string {
  const dir = join(home, name)
  mkdirSync(dir, { recursive: true })
  const file = join(dir, 'electron')
  writeFileSync(file, `#!/bin/sh\n${body}\n`)
  chmodSync(file, 0o755)
  return dir
}

describe.skipIf(process.platform !== 'linux')('npm start where Electron is installed', () => {
  it(
    'launches it on the app, and falls back to browser mode saying why when it stops at once',
    { timeout: 60_000 },
    async () => {
      const argsFile = join(home, 'electron-args.txt')
      const dist = fakeElectron(
        'broken-electron',
        `echo "$@" > ${argsFile}; echo "error while loading shared libraries: libnss3.so" >&2; exit 127`,
      )
      const { stderr } = await startUntilBrowserMode({
        DISPLAY: ':99',
        ELECTRON_OVERRIDE_DIST_PATH: dist,
      })
      // Electron was started on this checkout (with --no-sandbox only when run as root).
      const args = readFileSync(argsFile, 'utf8').trim().split(' ')
      expect(args[0]).toBe(root)
      expect(args.includes('--no-sandbox')).toBe(process.getuid?.() === 0)
      expect(stderr).toContain(
        'the desktop app stopped right after starting (exit code 127: error while loading shared libraries: libnss3.so)',
      )
      expect(stderr).toContain('browser mode')
    },
  )

  it(
    'keeps running the desktop app while it runs, without starting browser mode',
    {
      timeout: 60_000,
    },
    async () => {
      const dist = fakeElectron('working-electron', 'echo "window open" >&2; exec sleep 30')
      const child = spawn(process.execPath, ['scripts/start.mjs', '--no-open'], {
        cwd: root,
        env: {
          ...process.env,
          DISPLAY: ':99',
          ELECTRON_OVERRIDE_DIST_PATH: dist,
          SKILL_RUNNER_HOME: home,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let said = ''
      child.stdout.setEncoding('utf8').on('data', (t: string) => (said += t))
      child.stderr.setEncoding('utf8').on('data', (t: string) => (said += t))
      try {
        await new Promise<void>((resolve, reject) => {
          const timer = setInterval(
            () => said.includes('window open') && (clearInterval(timer), resolve()),
            50,
          )
          child.once('exit', (code) => reject(new Error(`npm start exited (${code}): ${said}`)))
        })
        // Stopped while the window is open: all it said in its whole life, and no browser mode.
        child.kill('SIGTERM')
        if (child.exitCode === null) await once(child, 'exit')
        expect(said).not.toContain('browser mode')
        expect(said).not.toContain('app at')
      } finally {
        child.kill('SIGTERM')
        if (child.exitCode === null) await once(child, 'exit')
      }
    },
  )
})
