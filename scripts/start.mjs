// `npm start`: the desktop app when Electron's binary is installed; otherwise (for example on a
// headless server, or where the binary could not be downloaded) it says so and starts browser
// mode instead: the same app served on 127.0.0.1, opened with the address it prints.
// `npm run web` (this script with --browser) always starts browser mode.
//   npm start [-- --port N]      npm run web [-- --host 127.0.0.1 --port N]
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const browserOnly = args.includes('--browser')
const passOn = args.filter((a) => a !== '--browser')
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'

/** The Electron executable if it is installed, else null. Never triggers a download. */
function electronBinary() {
  const pkg = join(root, 'node_modules', 'electron')
  const pathFile = join(pkg, 'path.txt')
  if (!existsSync(pathFile)) return null
  const relative = readFileSync(pathFile, 'utf8').trim()
  const base = process.env.ELECTRON_OVERRIDE_DIST_PATH || join(pkg, 'dist')
  const binary = join(base, relative)
  return existsSync(binary) ? binary : null
}

function newestMtime(dir) {
  let newest = 0
  if (!existsSync(dir)) return newest
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs)
  }
  return newest
}

/** The built UI is missing, or older than the sources it is built from. */
function needsBuild() {
  const index = join(root, 'out', 'renderer', 'index.html')
  const cli = join(root, 'out', 'cli', 'main.js')
  if (!existsSync(index)) return true
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

function startDesktop() {
  // electron-vite builds main, preload and renderer, then launches Electron on them.
  const child = spawn(npx, ['electron-vite', 'preview', ...passOn], { cwd: root, stdio: 'inherit' })
  child.on('exit', (code) => process.exit(code ?? 0))
}

function startBrowserMode() {
  if (needsBuild()) {
    console.error('Building the app first (this takes a moment the first time)…')
    run(npx, ['electron-vite', 'build'])
    run(process.execPath, [join(root, 'scripts', 'build-cli.mjs')])
  }
  const child = spawn(process.execPath, [join(root, 'bin', 'skill-runner.js'), 'web', ...passOn], {
    cwd: root,
    stdio: ['inherit', 'pipe', 'inherit'],
  })
  let buffered = ''
  child.stdout.setEncoding('utf8')
  child.stdout.on('data', (text) => {
    process.stdout.write(text)
    buffered += text
    const match = /app at (\S+)/.exec(buffered)
    if (match) {
      buffered = ''
      const url = match[1]
      const opened = openInBrowser(url)
      console.error(
        opened
          ? '\nSkill Runner opened in your browser. Keep this window open while you use it; press Ctrl+C to stop.'
          : `\nOpen this address in a browser on this computer:\n\n  ${url}\n\nKeep this window open while you use it; press Ctrl+C to stop.`,
      )
    }
  })
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)))
}

if (browserOnly) {
  startBrowserMode()
} else if (electronBinary()) {
  startDesktop()
} else {
  console.error(
    'The Electron runtime is not installed here (node_modules/electron has no binary; it is\n' +
      'downloaded by "npm install" where the network allows), so the desktop window cannot open.\n' +
      'Starting Skill Runner in browser mode instead: the same app, served on this computer only.\n',
  )
  startBrowserMode()
}
