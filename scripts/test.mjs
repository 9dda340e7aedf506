// `npm test`: type checks, lint (with the layers of ARCHITECTURE.md), code sizes, knip, the build
// the tests need, the suite's three tiers (fast, integration, e2e: see scripts/test-tiers.mjs),
// and the keychain tests inside a private D-Bus session with an unlocked gnome-keyring when the
// machine has one. Ends with the 20 slowest tests, each tier's count of tests and files and its
// time, each failed test by name (last, so a log cut at its head still says which), and one
// closing line "tests: N passed, N failed, N skipped"; exits 1 when any step or test failed.
//
// The build goes first, alone; then the lanes of LANES run side by side, the steps of a lane one
// after another: the fast tier then the checks; the integration tier one file at a time; the e2e
// tier one file at a time, then the integration tier's files its second lane has not reached.
// The integration files are taken a share at a time by whichever of those two lanes is free, so
// both end together: two test files at once throughout, and the checks' CPU at a lower priority
// in the time the tests spend waiting: see "The test suite's time" in docs/performance.md. Each
// step writes to test-results/logs/STEP.log as it goes, and its whole output is printed under its
// `--- label` line when it ends, so steps never interleave in the log.
import { spawn, spawnSync } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { TIERS, filesOf, vitestOptions } from './test-tiers.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const logs = join(root, 'test-results', 'logs')
const totals = { passed: 0, failed: 0, skipped: 0 }
const timings = []
/** Each failed test with the first line of its message, printed last so a cut-off log still names them. */
const failures = []
/** Per tier: its files, its tests and how long it took, for the closing lines (in ORDER). */
const tierLines = new Map()
const ORDER = [...TIERS, 'keychain']
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'
const tmp = mkdtempSync(join(tmpdir(), 'skill-runner-test-'))
const began = Date.now()

/** Runs one step with its output in its log file, then prints that output whole; true when it passed. */
function run(step) {
  const log = join(logs, `${step.name}.log`)
  const fd = openSync(log, 'w')
  const started = Date.now()
  // A child writing to a file sees no terminal: keep the colours it would use on ours.
  const env = { ...process.env, ...step.env, ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}) }
  return new Promise((done) => {
    // The checks compute while the tiers wait on timers: they yield the cores to the tests.
    const [cmd, args] =
      step.nice && process.platform !== 'win32' ? ['nice', ['-n', '10', step.cmd, ...step.args]] : [step.cmd, step.args]
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', fd, fd] })
    child.on('error', (error) => finish(null, error.message))
    child.on('exit', (code, signal) => finish(code ?? signal))
    let finished = false
    function finish(status, message) {
      if (finished) return
      finished = true
      closeSync(fd)
      const seconds = (Date.now() - started) / 1000
      console.log(`\n--- ${step.label} (${seconds.toFixed(0)} s)`)
      process.stdout.write(readFileSync(log, 'utf8'))
      if (message) console.error(message)
      const ok = status === 0
      if (!ok) console.error(`\n${step.label} failed (exit ${status}).`)
      step.after?.(ok, seconds)
      done(ok)
    }
  })
}

/** Per tier: tests, files, and when its first step started and its last ended (its wall time). */
const tierCounts = new Map()

function addVitestCounts(file, tierName, started) {
  if (!existsSync(file)) return false
  const report = JSON.parse(readFileSync(file, 'utf8'))
  const counts = tierCounts.get(tierName) ?? { tests: 0, files: 0, from: started, to: 0 }
  counts.tests += report.numTotalTests ?? 0
  counts.files += report.testResults?.length ?? 0
  counts.from = Math.min(counts.from, started)
  counts.to = Date.now()
  tierCounts.set(tierName, counts)
  tierLines.set(
    tierName,
    `${tierName.padEnd(12)} ${String(counts.tests).padStart(5)} tests in ` +
      `${String(counts.files).padStart(3)} files, ${((counts.to - counts.from) / 1000).toFixed(0)} s`,
  )
  totals.passed += report.numPassedTests ?? 0
  totals.failed += report.numFailedTests ?? 0
  totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0)
  for (const file of report.testResults ?? []) {
    fileTimes[relative(root, file.name)] = Math.round((file.endTime ?? 0) - (file.startTime ?? 0))
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

/**
 * A step of vitest whose JSON report is counted under its tier when it ends (a report missing on
 * failure counts as one failure).
 */
function vitestStep(name, label, args, { wrap = (a) => [npx, a], tierName = name } = {}) {
  const report = join(tmp, `${name}.json`)
  const [cmd, fullArgs] = wrap([
    'vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`,
  ])
  return {
    name,
    label,
    cmd,
    args: fullArgs,
    after(ok, seconds) {
      const started = Date.now() - seconds * 1000
      if (!addVitestCounts(report, tierName, started) && !ok) totals.failed += 1
    },
  }
}

const tier = (name) =>
  vitestStep(name, `tests: ${name}`, [...vitestOptions(name, { inWholeSuite: true }), ...filesOf(name)])

/**
 * Each test file's time in the last run here (ms), kept in test-results; on a clean clone, the
 * integration files' times of a run kept in scripts/integration-times.json (an order, nothing
 * more: copy the integration files' lines of test-results/file-times.json there when it drifts).
 */
const fileTimesPath = join(root, 'test-results', 'file-times.json')
const lastFileTimes = JSON.parse(
  readFileSync(existsSync(fileTimesPath) ? fileTimesPath : join(root, 'scripts', 'integration-times.json'), 'utf8'),
)
const fileTimes = {}

/**
 * The integration tier's files not yet taken, the slowest of the last run first (new ones before
 * them). A lane takes a quarter of what is left, counted in the files' last times (3 files and
 * 30 s at least): large shares while both lanes have long to go (each share is a vitest start
 * that loads the modules again, a few seconds), small ones at the end, so that the lane that ends
 * first waits little for the other. Counted in files, the first quarter (the slowest files) held
 * two thirds of the tier's time.
 */
const integrationLeft = filesOf('integration').sort(
  (a, b) => (lastFileTimes[b] ?? Infinity) - (lastFileTimes[a] ?? Infinity),
)
/** A file new since the last run counts as this long. */
const NEW_FILE_MS = 10_000
const lastTime = (file) => lastFileTimes[file] ?? NEW_FILE_MS
let sharesTaken = 0

/** The next share's files, taken from the head of integrationLeft. */
function nextShare() {
  const left = integrationLeft.reduce((sum, file) => sum + lastTime(file), 0)
  const budget = Math.max(30_000, left / 4)
  let count = 0
  let sum = 0
  while (count < integrationLeft.length && (count < 3 || sum + lastTime(integrationLeft[count]) <= budget)) {
    sum += lastTime(integrationLeft[count])
    count += 1
  }
  return integrationLeft.splice(0, count)
}

/** Steps of the integration tier, a share at a time, until none is left. */
function* integrationShares() {
  while (integrationLeft.length > 0) {
    const files = nextShare()
    sharesTaken += 1
    yield vitestStep(
      `integration-${sharesTaken}`,
      `tests: integration, share ${sharesTaken} (${files.length} files)`,
      [...vitestOptions('integration', { inWholeSuite: true }), ...files],
      { tierName: 'integration' },
    )
  }
}

const check = (name, label, cmd, args, nice = true) => ({ name, label, cmd, args, nice })

/** Keychain tests need a Secret Service: a private one when the machine can start it. */
function keychainStep() {
  const haveKeyring =
    process.platform === 'linux' &&
    spawnSync('sh', ['-c', 'command -v dbus-run-session && command -v gnome-keyring-daemon']).status === 0
  const args = ['--config', 'vitest.keychain.config.ts']
  if (!haveKeyring) {
    return vitestStep('keychain', 'keychain tests (no dbus-run-session/gnome-keyring here: they skip with a reason)', args)
  }
  const step = vitestStep('keychain', 'keychain tests (private gnome-keyring)', args, {
    wrap: (a) => [
      'dbus-run-session',
      ['--', 'sh', '-c', `echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; npx ${a.join(' ')}`],
    ],
  })
  return { ...step, env: { XDG_DATA_HOME: join(tmp, 'xdg-data') } }
}

const INTEGRATION = Symbol('integration shares')
const BUILD = check('build', 'build (renderer for browser-mode tests, CLI bundle)', 'npm', ['run', 'build'], false)
const LANES = [
  [
    tier('fast'),
    check('typecheck-node', 'typecheck (node side)', npx, ['tsc', '-p', 'tsconfig.node.json', '--noEmit']),
    check('typecheck-web', 'typecheck (web side)', npx, ['tsc', '-p', 'tsconfig.web.json', '--noEmit']),
    check('lint', 'lint', npx, ['eslint', '.']),
    check('code-sizes', 'code sizes (files <= 400 lines, functions <= 80)', 'node', ['scripts/code-sizes.mjs']),
    check('knip', 'knip (no unused files, exports or dependencies)', npx, ['knip', '--no-progress']),
  ],
  [INTEGRATION],
  [tier('e2e'), INTEGRATION],
]

/** A lane's steps; INTEGRATION stands for shares of that tier until none is left. */
function* stepsOf(planned) {
  for (const step of planned) {
    if (step === INTEGRATION) yield* integrationShares()
    else yield step
  }
}

async function lane(planned) {
  let ok = true
  for (const step of stepsOf(planned)) {
    console.log(`\n--- ${step.label}: started (${((Date.now() - began) / 1000).toFixed(0)} s in)`)
    ok = (await run(step)) && ok
  }
  return ok
}

mkdirSync(logs, { recursive: true })
let ok = await run(BUILD)
ok = (await Promise.all(LANES.map(lane))).every(Boolean) && ok
if (existsSync(join(root, 'vitest.keychain.config.ts'))) ok = (await run(keychainStep())) && ok

rmSync(tmp, { recursive: true, force: true })
writeFileSync(fileTimesPath, JSON.stringify({ ...lastFileTimes, ...fileTimes }, null, 1))
console.log('\nthe 20 slowest tests:')
for (const { ms, name } of timings.sort((a, b) => b.ms - a.ms).slice(0, 20)) {
  console.log(`${(ms / 1000).toFixed(1).padStart(7)} s  ${name}`)
}
console.log('\neach tier (side by side, each its own time):')
for (const name of ORDER) if (tierLines.has(name)) console.log(`  ${tierLines.get(name)}`)
console.log(`  all steps: ${((Date.now() - began) / 1000).toFixed(0)} s`)
if (failures.length > 0) {
  console.log('\nfailed:')
  for (const line of failures) console.log(`  ${line}`)
}
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`)
process.exit(ok && totals.failed === 0 ? 0 : 1)
