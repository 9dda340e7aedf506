// How the command line looks at a terminal and elsewhere: help that describes every option of
// every command, shell completion that completes, colour only on a terminal and never with
// NO_COLOR, a progress bar with counts, rate and time left, and times in the user's time zone.
import { execFile, spawnSync } from 'node:child_process'
import { promisify } from 'node:util'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commands } from '../../src/cli/commands'
import { SHELLS } from '../../src/cli/completion'
import { optionDescription, optionRows } from '../../src/cli/help'
import { runCliCaptured } from '../helpers/cli'
import { createOutput } from '../../src/cli/output'
import { paintMarks } from '../../src/cli/style'
import { renderProgress, startProgressBar } from '../../src/cli/progress'
import { localTime } from '../../src/cli/time'
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox'

const root = join(import.meta.dirname, '..', '..')
const home = mkdtempSync(join(tmpdir(), 'sr-cli-terminal-'))
let sandbox: TestSandbox

beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(async () => {
  await sandbox.close()
})

/** Runs the CLI in-process; `tty` makes stdout and stderr look like a terminal. */
const cli = (args: string[], opts: { tty?: boolean; env?: Record<string, string> } = {}) =>
  runCliCaptured(
    args,
    { SKILL_RUNNER_HOME: home, SKILL_RUNNER_TOKEN: sandbox.token, ...opts.env },
    { tty: opts.tty },
  )

const ESC = '\x1b['

describe('help', () => {
  it('describes every option of every command', () => {
    const missing = commands.flatMap((c) =>
      Object.keys(c.options ?? {})
        .filter((name) => !optionDescription(c, name))
        .map((name) => `${c.name} --${name}`),
    )
    expect(missing).toEqual([])
  })

  it('shows a command’s options with their values and meaning, by --help and by `help`', async () => {
    const a = await cli(['runs', 'download', '--help'])
    const b = await cli(['help', 'runs', 'download'])
    expect(a.code).toBe(0)
    expect(b.stdout.trim()).toBe(a.stdout.trim())
    expect(a.stdout).toMatch(/-o, --output DIR\s+the folder to download into/)
    for (const [left] of optionRows(commands.find((c) => c.name === 'execute')!)) {
      expect((await cli(['execute', '--help'])).stdout).toContain(left)
    }
    expect((await cli(['help', 'nonsense'])).code).toBe(2)
  })
})

describe('completion', () => {
  it('prints a script for each shell; bash completes commands, subcommands and options', () => {
    const script = spawnSync(
      process.execPath,
      [join(root, 'bin', 'skill-runner.js'), 'completion', 'bash'],
      {
        encoding: 'utf8',
      },
    ).stdout
    const file = join(home, 'completion.bash')
    writeFileSync(file, script)
    const complete = (words: string[]) => {
      const r = spawnSync(
        'bash',
        [
          '-c',
          `source ${file}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _skill_runner; echo "\${COMPREPLY[*]}"`,
        ],
        { encoding: 'utf8' },
      )
      return r.stdout.trim().split(/\s+/)
    }
    expect(complete(['skill-runner', 'ru'])).toEqual(['run', 'runs'])
    expect(complete(['skill-runner', 'runs', 're'])).toEqual(['results', 'retry-failed', 'redo'])
    expect(complete(['skill-runner', '--json', 'execute', '--max'])).toEqual(['--max-cost'])
    expect(complete(['skill-runner', '--json', 'execute', '--ma'])).toEqual([
      '--max-cost',
      '--map',
      '--map-file',
    ])
  })

  it.each(SHELLS)('%s: the script parses in that shell (where it is installed)', async (shell) => {
    const r = await cli(['completion', shell])
    expect(r.code).toBe(0)
    const has = spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0
    if (!has) return
    const file = join(home, `completion.${shell}`)
    writeFileSync(file, r.stdout)
    expect(spawnSync(shell, ['-n', file], { encoding: 'utf8' }).stderr).toBe('')
  })

  it('refuses a shell it does not know', async () => {
    expect((await cli(['completion', 'powershell'])).code).toBe(2)
  })
})

describe('colour', () => {
  it('appears on a terminal, never with NO_COLOR, never through a pipe', async () => {
    const args = ['doctor', '--base-url', sandbox.url]
    expect((await cli(args, { tty: true })).stdout).toContain(ESC)
    expect((await cli(args, { tty: true, env: { NO_COLOR: '1' } })).stdout).not.toContain(ESC)
    expect((await cli(args)).stdout).not.toContain(ESC)
    const bad = await cli(['nonsense'], { tty: true })
    expect(bad.stderr).toContain(`${ESC}31m${ESC}1merror:`)
    expect((await cli(['nonsense'], { tty: true, env: { NO_COLOR: 'yes' } })).stderr).toMatch(
      /^error:/,
    )
  })

  it('keeps stripping what a service sends: colour comes only from our own palette', () => {
    const out: string[] = []
    const output = createOutput(
      false,
      { stdout: { write: (t: string) => out.push(t), isTTY: true }, stderr: { write: () => {} } },
      {},
    )
    const hostile = `clear${ESC}2J title${String.fromCharCode(27)}]0;pwned${String.fromCharCode(7)} hide\uE0008\uE001x`
    output.result(null, () => `${output.style.green('ok')} ${hostile}`)
    expect(out.join('')).toBe(`${ESC}32mok${ESC}39m clear title hide8x\n`)
    expect(paintMarks('\uE00031\uE001red', false)).toBe('red')
  })
})

describe('progress bar', () => {
  it('shows counts, rate and time left, then how long it took', () => {
    const frame = { label: 'run_1', unit: 'rows' as const, startedAtMs: 0, total: 40 }
    expect(renderProgress({ ...frame, done: 10, nowMs: 5000, barWidth: 8 })).toBe(
      'run_1  [██░░░░░░]  10/40 rows  2.0 rows/s  0:15 left',
    )
    expect(renderProgress({ ...frame, done: 40, nowMs: 65_000, barWidth: 8 })).toBe(
      'run_1  [████████]  40/40 rows  0.6 rows/s  done in 1:05',
    )
    // Bytes in MB; a resumed download measures its rate from where it resumed.
    expect(
      renderProgress({
        label: 'downloading',
        unit: 'bytes',
        startedAtMs: 0,
        doneAtStart: 10 * 1024 * 1024,
        done: 30 * 1024 * 1024,
        total: 50 * 1024 * 1024,
        nowMs: 10_000,
        barWidth: 10,
      }),
    ).toBe('downloading  [██████░░░░]  30.0/50.0 MB  2.0 MB/s  0:10 left')
    // Nothing measured yet: no rate, no guess.
    expect(renderProgress({ ...frame, done: 0, nowMs: 100, barWidth: 4 })).toBe(
      'run_1  [░░░░]  0/40 rows',
    )
  })

  it('says the time left a run watch tells it, or nothing when it cannot be told', () => {
    const frame = { label: 'run_1', unit: 'rows' as const, startedAtMs: 0, total: 40, barWidth: 8 }
    expect(renderProgress({ ...frame, done: 10, nowMs: 5000, leftText: 'about 12 min left' })).toBe(
      'run_1  [██░░░░░░]  10/40 rows  2.0 rows/s  about 12 min left',
    )
    expect(renderProgress({ ...frame, done: 10, nowMs: 5000, leftText: '' })).toBe(
      'run_1  [██░░░░░░]  10/40 rows  2.0 rows/s',
    )
  })

  it('redraws one line on a terminal and prints few lines in a log', () => {
    let now = 0
    const lines: string[] = []
    const sink = { redraws: false, progress: (l: string) => lines.push(l), endProgress() {} }
    const bar = startProgressBar(sink, 'uploading', 'files', () => now)
    for (let i = 0; i <= 100; i += 1) {
      now = i * 100
      bar.update(i, 100)
    }
    // Ten seconds of work in a log: a line every five seconds and the last one.
    expect(lines.length).toBe(3)
    expect(lines.at(-1)).toContain('100/100 files')
  })

  it('follows a run with --watch on a terminal', { timeout: 60_000 }, async () => {
    const csv = join(home, 'rows.csv')
    writeFileSync(csv, 'Message\none\ntwo\nthree\n')
    const r = await cli(
      ['run', csv, '--template', 'row-echo', '--yes', '--watch', '--base-url', sandbox.url],
      { tty: true },
    )
    expect(r.code).toBe(0)
    expect(r.stderr).toContain(`\r${ESC}2Krun_`)
    expect(r.stderr).toMatch(/run_\w+ {2}\[[█░]+\] {2}3\/3 rows/)
  })
})

describe('times', () => {
  it('are local to the user, with the zone named', () => {
    const t = Date.UTC(2026, 10, 23, 9, 5) / 1000
    expect(localTime(t, 'UTC')).toBe('2026-11-23 09:05 UTC')
    expect(localTime(t, 'Asia/Tokyo')).toBe('2026-11-23 18:05 GMT+9')
    expect(localTime(t, 'America/New_York')).toBe('2026-11-23 04:05 EST')
    expect(localTime(0)).toBe('-')
  })

  it('runs list shows the run’s creation time in TZ', async () => {
    const env = { ...process.env, SKILL_RUNNER_HOME: home, TZ: 'Asia/Tokyo', NO_COLOR: '1' }
    // (A child process: the sandbox runs in this one, so waiting synchronously would block it.)
    const r = await promisify(execFile)(
      process.execPath,
      [join(root, 'bin', 'skill-runner.js'), 'runs', 'list', '--base-url', sandbox.url],
      { encoding: 'utf8', env: { ...env, SKILL_RUNNER_TOKEN: sandbox.token } },
    )
    expect(r.stdout).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d GMT\+9/)
  })
})
