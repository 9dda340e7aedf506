// Builds out/ (the app with electron-vite, and the CLI bundle) when it is missing or older than
// any source it is built from, so a browser or CLI test run alone never tests an old bundle.
// `npm test` builds first anyway; this is for `npm run test:e2e` and single test files.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const SOURCES = ['src', 'index.html', 'electron.vite.config.ts', 'scripts/build-cli.mjs', 'package.json']
const OUTPUTS = ['out/renderer/index.html', 'out/main/index.js', 'out/cli/main.js']

function newest(path) {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let latest = 0
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)))
  return latest
}

/** Why out/ must be built again, or null when it is up to date. */
export function staleBuild() {
  const missing = OUTPUTS.find((file) => !existsSync(join(root, file)))
  if (missing) return `${missing} is missing`
  const built = Math.min(...OUTPUTS.map((file) => statSync(join(root, file)).mtimeMs))
  const source = SOURCES.find((path) => newest(join(root, path)) > built)
  return source ? `${source} changed after the last build` : null
}

const why = staleBuild()
if (why) {
  console.log(`building the app: ${why}`)
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const r = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' })
  process.exit(r.status ?? 1)
}
