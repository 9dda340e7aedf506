// The test suite's three tiers, told apart by what a test file starts (read from its imports and
// those of the test helpers it uses, followed through test/):
// - e2e: a browser (test/e2e, or anything that imports playwright);
// - integration: a process, a server, the sandbox over HTTP, SQLite or the engine;
// - fast: everything else (pure code and components), which must stay under a minute.
// A file that is slow for another reason says so in a line of its own: `// tier: integration`.
// `node scripts/test-tiers.mjs TIER [vitest args…]` runs one tier; `--list TIER` prints its files.
import { spawnSync } from 'node:child_process'
import { readFileSync, readdirSync, existsSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const testDir = join(root, 'test')
export const TIERS = ['fast', 'integration', 'e2e']

const BROWSER = [/^playwright/, /^@playwright\//]
const STARTS_SOMETHING = [
  /^(node:)?child_process$/, /^(node:)?http$/, /^(node:)?https$/, /^(node:)?net$/,
  /^(node:)?worker_threads$/, /^libsql$/,
  /\/src\/sandbox(\/|$)/, /\/src\/core\/engine$/, /\/src\/core\/storage\//, /\/src\/cli\/main$/,
  /\/src\/core\/environments\/builtin-sandbox$/, /\/src\/web\//, /\/src\/main\//,
]

function testFiles(dir) {
  const found = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      if (entry.name !== 'keychain' && entry.name !== 'fixtures') found.push(...testFiles(path))
    } else if (/\.test\.tsx?$/.test(entry.name)) found.push(path)
  }
  return found.sort()
}

function specifiers(text) {
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)].map((m) => m[1])
}

/** Every module a test file reaches through its own imports and the test helpers it uses. */
function reached(file, seen = new Set()) {
  if (seen.has(file)) return []
  seen.add(file)
  const found = []
  for (const spec of specifiers(readFileSync(file, 'utf8'))) {
    const absolute = spec.startsWith('.') ? resolve(dirname(file), spec) : spec
    found.push(spec.startsWith('.') ? '/' + relative(root, absolute) : spec)
    if (!spec.startsWith('.') || !absolute.startsWith(testDir)) continue
    const helper = ['.ts', '.tsx', '/index.ts'].map((ext) => absolute + ext).find(existsSync)
    if (helper) found.push(...reached(helper, seen))
  }
  return found
}

export function tierOf(file) {
  if (file.startsWith(join(testDir, 'e2e') + '/')) return 'e2e'
  const told = /^\/\/ tier: (\w+)/m.exec(readFileSync(file, 'utf8'))
  if (told && TIERS.includes(told[1])) return told[1]
  const modules = reached(file)
  if (modules.some((m) => BROWSER.some((re) => re.test(m)))) return 'e2e'
  if (modules.some((m) => STARTS_SOMETHING.some((re) => re.test(m)))) return 'integration'
  return 'fast'
}

/**
 * How vitest runs a tier, beside its files. The fast tier's files share one worker process, so
 * React, happy-dom and the app's modules load once rather than once per file (a test that changes
 * a global puts it back: see test/components/harness.tsx). So do the integration tier's, each
 * worker loading the engine, CLI and sandbox modules once (every file still starts its own
 * sandboxes, engines and processes). It runs two files at a time, as its tests mostly wait (see
 * docs/performance.md), and one when it runs beside the e2e tier (`inWholeSuite`, as `npm test`
 * runs it): two test files at once in all, the load the tests' waits are made for. The e2e
 * tier likewise runs two files when alone (a journey mostly waits on its runs and its page) and
 * one beside the integration tier. Its files share one Chromium (vitest.e2e.config.ts), and a
 * worker's files share their modules, as the fast tier's do: each file's app is its own
 * (engine, sandboxes, browser context: test/e2e/harness.ts).
 */
export function vitestOptions(tier, { inWholeSuite = false } = {}) {
  if (tier === 'fast') return ['--isolate=false']
  const workers = `--maxWorkers=${inWholeSuite ? 1 : 2}`
  if (tier === 'integration') return ['--isolate=false', workers]
  return ['--config', 'vitest.e2e.config.ts', '--isolate=false', workers]
}

export function filesOf(tier) {
  return testFiles(testDir).filter((file) => tierOf(file) === tier).map((file) => relative(root, file))
}

function main(argv) {
  const list = argv[0] === '--list'
  const tier = list ? argv[1] : argv[0]
  if (!TIERS.includes(tier)) {
    console.error(`Say which tier: ${TIERS.join(', ')}.`)
    process.exit(2)
  }
  const files = filesOf(tier)
  if (list) {
    console.log(files.join('\n'))
    return
  }
  if (tier === 'e2e') {
    const built = spawnSync('node', ['scripts/ensure-built.mjs'], { cwd: root, stdio: 'inherit' })
    if (built.status !== 0) process.exit(built.status ?? 1)
  }
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'
  const args = ['vitest', 'run', ...vitestOptions(tier), ...argv.slice(1), ...files]
  const r = spawnSync(npx, args, { cwd: root, stdio: 'inherit' })
  process.exit(r.status ?? 1)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2))
