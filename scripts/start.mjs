// `npm start`: the desktop app wherever Electron can run; otherwise browser mode (the same app
// served on 127.0.0.1), after saying exactly why the window could not open.
// `npm run web` (this script with --browser) always starts browser mode.
//   npm start [-- --port N]      npm run web [-- --host 127.0.0.1 --port N]
// (--host and --port apply to browser mode.)
//
// Electron 45 does not download its binary during `npm install`; it arrives on first use. So
// the first `npm start` on a computer with a display downloads it (about 100 MB, once; see
// scripts/electron-runtime.mjs), and later starts open the window at once. Set
// ELECTRON_SKIP_BINARY_DOWNLOAD=1 to never download, ELECTRON_MIRROR to use a mirror.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  displayProblem,
  electronPackage,
  installElectron,
  installedElectron,
} from './electron-runtime.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const browserOnly = args.includes('--browser')
// --no-open: print browser mode's address without opening a browser (scripts, tests).
const noOpen = args.includes('--no-open')
const passOn = args.filter((a) => a !== '--browser' && a !== '--no-open')
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'

function newestMtime(dir) {
  let newest = 0
  if (!existsSync(dir)) return newest
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs)
  }
  return newest
}

/** The built app is missing, or older than the sources it is built from. */
function needsBuild() {
  const index = join(root, 'out', 'renderer', 'index.html')
  const cli = join(root, 'out', 'cli', 'main.js')
  if (!existsSync(index) || !existsSync(join(root, 'out', 'main', 'index.js'))) return true
  if (existsSync(join(root, 'src', 'cli', 'main.ts')) && !existsSync(cli)) return true
  const built = Math.min(
    statSync(index).mtimeMs,
    existsSync(cli) ? statSync(cli).mtimeMs : Infinity,
  )
  return newestMtime(join(root, 'src')) > built
}

function run(cmd, cmdArgs) {
  const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit' })
  if (r.status !== 0) {
    console.error(`\n"${[cmd, ...cmdArgs].join(' ')}" failed; Skill Runner cannot start.`)
    process.exit(r.status ?? 1)
  }
}

function commandExists(name) {
  const probe =
    process.platform === 'win32' ? ['where', [name]] : ['sh', ['-c', `command -v ${name}`]]
  return spawnSync(probe[0], probe[1], { stdio: 'ignore' }).status === 0
}

/** Opens the address in the user's browser when this machine has a way to (and a screen). */
function openInBrowser(url) {
  let opener = null
  if (process.platform === 'darwin') opener = ['open', [url]]
  else if (process.platform === 'win32') opener = ['cmd', ['/c', 'start', '""', url]]
  else if ((process.env.DISPLAY || process.env.WAYLAND_DISPLAY) && commandExists('xdg-open')) {
    opener = ['xdg-open', [url]]
  }
  if (!opener) return false
  const child = spawn(opener[0], opener[1], { stdio: 'ignore', detached: true })
  child.on('error', () => {})
  child.unref()
  return true
}

function buildIfNeeded() {
  if (!needsBuild()) return
  console.error('Building the app first (this takes a moment the first time)…')
  run(npx, ['electron-vite', 'build'])
  run(process.execPath, [join(root, 'scripts', 'build-cli.mjs')])
}

/**
 * A child started in the project folder whose `watched` stream (stdout or stderr) still reaches
 * ours, each piece handed to `onText` as well, so what it says can be acted on; Ctrl+C and
 * SIGTERM reach it too.
 */
function startPassingOn(cmd, cmdArgs, watched, onText) {
  const stdio = ['inherit', 'inherit', 'inherit']
  stdio[watched === 'stdout' ? 1 : 2] = 'pipe'
  const child = spawn(cmd, cmdArgs, { cwd: root, stdio })
  child[watched].setEncoding('utf8')
  child[watched].on('data', (text) => {
    process[watched].write(text)
    onText(text)
  })
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
  return child
}

/** Electron on the built app. If it stops at once with an error, browser mode takes over. */
function startDesktop(binary) {
  buildIfNeeded()
  const flags = []
  // Chromium refuses to start as root on Linux unless its sandbox is off.
  if (process.platform === 'linux' && process.getuid?.() === 0) flags.push('--no-sandbox')
  const started = Date.now()
  let lastError = ''
  const child = startPassingOn(binary, [root, ...flags], 'stderr', (text) => {
    const lines = text.trim().split('\n').filter(Boolean)
    if (lines.length) lastError = lines[lines.length - 1]
  })
  child.on('error', (error) => fallBack(`Electron could not be started (${error.message})`))
  child.on('exit', (code, signal) => {
    if (code && Date.now() - started < 15_000) {
      fallBack(
        `the desktop app stopped right after starting (exit code ${code}${lastError ? `: ${lastError}` : ''})`,
      )
    } else process.exit(code ?? (signal ? 0 : 1))
  })
}

function fallBack(reason) {
  console.error(
    `\nThe desktop window cannot open: ${reason}.\n` +
      'Starting Skill Runner in browser mode instead: the same app, served on this computer only.\n',
  )
  startBrowserMode()
}

function startBrowserMode() {
  buildIfNeeded()
  let buffered = ''
  const cli = [join(root, 'bin', 'skill-runner.js'), 'web', ...passOn]
  const child = startPassingOn(process.execPath, cli, 'stdout', (text) => {
    buffered += text
    const match = /app at (\S+)/.exec(buffered)
    if (match) {
      buffered = ''
      const url = match[1]
      const opened = !noOpen && openInBrowser(url)
      console.error(
        opened
          ? '\nSkill Runner opened in your browser. Keep this window open while you use it; press Ctrl+C to stop.'
          : `\nOpen this address in a browser on this computer:\n\n  ${url}\n\nKeep this window open while you use it; press Ctrl+C to stop.`,
      )
    }
  })
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)))
}

/** A one-line download progress on a terminal; a line every 10 MB elsewhere. */
function downloadProgress() {
  let lastMb = -10
  return (transferred, total) => {
    const mb = transferred / 1024 / 1024
    const text = total
      ? `Downloading Electron: ${mb.toFixed(1)} of ${(total / 1024 / 1024).toFixed(1)} MB (${Math.floor((100 * transferred) / total)}%)`
      : `Downloading Electron: ${mb.toFixed(1)} MB`
    if (process.stderr.isTTY) process.stderr.write(`\r\x1b[2K${text}`)
    else if (mb - lastMb >= 10) {
      lastMb = mb
      console.error(text)
    }
  }
}

/** The Electron executable, downloading it on first use; or the reason there is none. */
async function findElectron() {
  const noDisplay = displayProblem()
  let binary = installedElectron(root)
  if (noDisplay) return { reason: noDisplay }
  if (binary) return { binary }
  const pkg = electronPackage(root)
  if (!pkg) return { reason: 'the electron package is not installed (run "npm install" first)' }
  // electron's installer require()s an ES module (its zip extractor): Node 20.19+ or 22.12+.
  const [major, minor] = process.versions.node.split('.').map(Number)
  if (major < 20 || (major === 20 && minor < 19) || (major === 22 && minor < 12)) {
    return {
      reason:
        `Node ${process.versions.node} cannot unpack the Electron ${pkg.version} runtime ` +
        '(it needs Node 22.13 or newer, or 20.19+); see "Set up" in README.md',
    }
  }
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
    return {
      reason:
        `the Electron ${pkg.version} runtime is not installed and ELECTRON_SKIP_BINARY_DOWNLOAD ` +
        'is set, so it is not downloaded (unset it, or run "npx install-electron --no")',
    }
  }
  console.error(`Getting the Electron ${pkg.version} runtime (first start only; about 100 MB)…`)
  try {
    binary = await installElectron(root, { onProgress: downloadProgress() })
    if (process.stderr.isTTY) process.stderr.write('\n')
    return { binary }
  } catch (error) {
    if (process.stderr.isTTY) process.stderr.write('\n')
    return {
      reason: `${error.message}. Next "npm start" tries again (a mirror: set ELECTRON_MIRROR)`,
    }
  }
}

if (browserOnly) {
  startBrowserMode()
} else {
  const { binary, reason } = await findElectron()
  if (binary) startDesktop(binary)
  else fallBack(reason)
}
