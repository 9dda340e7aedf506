/**
 * How soon the command line answers, as whole processes (what a user or a script waits for):
 * the median of several runs of each, beside bare `node -e 0` in the same run.
 *
 * Targets (issue 35), as multiples of bare node's start measured in the same run, so that a slow
 * or busy machine moves both sides alike: `--version`, `--help` and a completion answer at most
 * 1.3x; validating a 3-row csv at most 2x. They need the built CLI (out/cli, made by `npm install`).
 *
 * The commands take turns, one run of each per round, so that a change in the machine's load
 * weighs on every figure alike.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { root } from './support'

const RUNS = 7
if (!existsSync(join(root, 'out/cli/main.js'))) {
  console.log('SKIP the CLI is not built: run `npm run build:cli` first.')
  process.exit(0)
}
const dir = mkdtempSync(join(tmpdir(), 'sr-bench-cli-'))
const csv = join(dir, 'three.csv')
writeFileSync(csv, 'Message,Sequence number\nhello,1\nagain,2\nthree,3\n')
const env = { ...process.env, SKILL_RUNNER_HOME: join(dir, 'home') }
const cli = join(root, 'bin/skill-runner.js')

/** Wall time of one whole process, in ms. */
function once(args: string[]): number {
  const started = process.hrtime.bigint()
  spawnSync(process.execPath, args, { env, stdio: 'ignore' })
  return Number(process.hrtime.bigint() - started) / 1e6
}

function loadAverage(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')
}

function median(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

try {
  // The first validate saves the template's schema; the measured ones are the usual case.
  spawnSync(process.execPath, [cli, 'validate', csv, '--template', 'row-echo'], { env })
  // Whole processes on a shared machine: the load says how far to trust the figures below.
  console.log(`load average ${loadAverage()} (before)`)
  const rows: [string, string[], number][] = [
    ['skill-runner --version', [cli, '--version'], 1.3],
    ['skill-runner --help', [cli, '--help'], 1.3],
    ['skill-runner completion bash', [cli, 'completion', 'bash'], 1.3],
    ['skill-runner validate (3-row csv)', [cli, 'validate', csv, '--template', 'row-echo'], 2],
  ]
  const all: string[][] = [['-e', '0'], ...rows.map(([, args]) => args)]
  const times: number[][] = all.map(() => [])
  for (let round = 0; round < RUNS; round += 1) all.forEach((args, i) => times[i]!.push(once(args)))
  const bare = median(times[0]!)
  console.log(`bare node -e 0                      ${bare.toFixed(0).padStart(5)} ms`)
  rows.forEach(([label, , most], i) => {
    const ms = median(times[i + 1]!)
    const ratio = ms / bare
    console.log(
      `${ratio <= most ? 'MET ' : 'MISS'} ${label.padEnd(34)} ${ms.toFixed(0).padStart(5)} ms, ${ratio.toFixed(2)}x bare node (target at most ${most}x; median of ${RUNS})`,
    )
  })
  console.log(`load average ${loadAverage()} (after)`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
