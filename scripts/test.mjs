// `npm test`: type checks, lint (with the layers of ARCHITECTURE.md), code sizes, knip, the build
// the browser tests need, the suite's three tiers in order (fast, integration, e2e: see
// scripts/test-tiers.mjs), and the keychain tests inside a private D-Bus session with an unlocked
// gnome-keyring when the machine has one. Ends with the 20 slowest tests, each tier's count of
// tests and files and its time, each failed test by name (last, so a log cut at its head still
// says which), and one closing line "tests: N passed, N failed, N skipped".
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { TIERS, filesOf, vitestOptions } from './test-tiers.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const totals = { passed: 0, failed: 0, skipped: 0 }
const timings = []
/** Each failed test with the first line of its message, printed last so a cut-off log still names them. */
const failures = []
/** Per tier: its files, its tests and how long it took, for the closing lines. */
const tierLines = []

function run(label, cmd, args, options = {}) {
  console.log(`\n--- ${label}`)
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...options })
  if (r.status !== 0) {
    console.error(`\n${label} failed (exit ${r.status ?? r.signal}).`)
    return false
  }
  return true
}

function addVitestCounts(file, label, seconds) {
  if (!existsSync(file)) return false
  const report = JSON.parse(readFileSync(file, 'utf8'))
  tierLines.push(
    `${label.padEnd(12)} ${String(report.numTotalTests ?? 0).padStart(5)} tests in ` +
      `${String(report.testResults?.length ?? 0).padStart(3)} files, ${seconds.toFixed(0)} s`,
  )
  totals.passed += report.numPassedTests ?? 0
  totals.failed += report.numFailedTests ?? 0
  totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0)
  for (const file of report.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      const name = `${relative(root, file.name)} › ${test.title}`
      timings.push({ ms: test.duration ?? 0, name })
      if (test.status === 'failed') {
        const first = String(test.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300)
        failures.push(`${name}\n      ${first}`)
      }
    }
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed')) {
      const first = String(file.message ?? '').split('\n')[0].slice(0, 300)
      failures.push(`${relative(root, file.name)} (the file itself)\n      ${first}`)
    }
  }
  return true
}

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'
const tmp = mkdtempSync(join(tmpdir(), 'skill-runner-test-'))
let ok = true
ok = run('typecheck (node side)', npx, ['tsc', '-p', 'tsconfig.node.json', '--noEmit']) && ok
ok = run('typecheck (web side)', npx, ['tsc', '-p', 'tsconfig.web.json', '--noEmit']) && ok
ok = run('lint', npx, ['eslint', '.']) && ok
ok = run('code sizes (files <= 400 lines, functions <= 80)', 'node', ['scripts/code-sizes.mjs']) && ok
ok = run('knip (no unused files, exports or dependencies)', npx, ['knip', '--no-progress']) && ok
ok = run('build (renderer for browser-mode tests, CLI bundle)', 'npm', ['run', 'build']) && ok

for (const tier of TIERS) {
  const report = join(tmp, `${tier}.json`)
  const started = Date.now()
  const tierOk = run(`tests: ${tier}`, npx, [
    'vitest', 'run', ...vitestOptions(tier),
    '--reporter=default', '--reporter=json', `--outputFile.json=${report}`,
    ...filesOf(tier),
  ])
  if (!addVitestCounts(report, tier, (Date.now() - started) / 1000) && !tierOk) totals.failed += 1
  ok = tierOk && ok
}

// Keychain tests need a Secret Service. Start a private one when the machine can.
const keychainReport = join(tmp, 'keychain.json')
const haveKeyring =
  process.platform === 'linux' &&
  spawnSync('sh', ['-c', 'command -v dbus-run-session && command -v gnome-keyring-daemon']).status === 0
const keychainArgs = `vitest run --config vitest.keychain.config.ts --reporter=default --reporter=json --outputFile.json=${keychainReport}`
if (existsSync(join(root, 'vitest.keychain.config.ts'))) {
  let keychainOk
  const started = Date.now()
  if (haveKeyring) {
    const dataHome = join(tmp, 'xdg-data')
    keychainOk = run('keychain tests (private gnome-keyring)', 'dbus-run-session', [
      '--', 'sh', '-c',
      `echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; npx ${keychainArgs}`,
    ], { env: { ...process.env, XDG_DATA_HOME: dataHome } })
  } else {
    console.log('\n--- keychain tests: no dbus-run-session/gnome-keyring here; they run and skip with a reason')
    keychainOk = run('keychain tests', 'sh', ['-c', `npx ${keychainArgs}`])
  }
  const seconds = (Date.now() - started) / 1000
  if (!addVitestCounts(keychainReport, 'keychain', seconds) && !keychainOk) totals.failed += 1
  ok = keychainOk && ok
}

rmSync(tmp, { recursive: true, force: true })
console.log('\nthe 20 slowest tests:')
for (const { ms, name } of timings.sort((a, b) => b.ms - a.ms).slice(0, 20)) {
  console.log(`${(ms / 1000).toFixed(1).padStart(7)} s  ${name}`)
}
console.log('\neach tier:')
for (const line of tierLines) console.log(`  ${line}`)
if (failures.length > 0) {
  console.log('\nfailed:')
  for (const line of failures) console.log(`  ${line}`)
}
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`)
process.exit(ok && totals.failed === 0 ? 0 : 1)
