/**
 * How soon the command line answers, as whole processes (what a user or a script waits for):
 * the median of several runs of each, beside bare `node -e 0` in the same run.
 *
 * Targets (issue 23): `--version`, `--help` and a completion answer under 150 ms; validating a
 * 3-row csv under 300 ms. They need the built CLI (out/cli, made by `npm install`).
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

function medianMs(args: string[]): number {
  const times: number[] = []
  for (let i = 0; i < RUNS; i += 1) {
    const started = process.hrtime.bigint()
    spawnSync(process.execPath, args, { env, stdio: 'ignore' })
    times.push(Number(process.hrtime.bigint() - started) / 1e6)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)]!
}

try {
  // The first validate saves the template's schema; the measured ones are the usual case.
  spawnSync(process.execPath, [cli, 'validate', csv, '--template', 'row-echo'], { env })
  // Whole processes on a shared machine: the load says how far to trust the figures below.
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  )
  const bare = medianMs(['-e', '0'])
  console.log(`bare node -e 0                      ${bare.toFixed(0).padStart(5)} ms`)
  const rows: [string, string[], number][] = [
    ['skill-runner --version', [cli, '--version'], 150],
    ['skill-runner --help', [cli, '--help'], 150],
    ['skill-runner completion bash', [cli, 'completion', 'bash'], 150],
    ['skill-runner validate (3-row csv)', [cli, 'validate', csv, '--template', 'row-echo'], 300],
  ]
  for (const [label, args, target] of rows) {
    const ms = medianMs(args)
    console.log(
      `${ms < target ? 'MET ' : 'MISS'} ${label.padEnd(34)} ${ms.toFixed(0).padStart(5)} ms (target under ${target} ms; median of ${RUNS})`,
    )
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
