// `run` (an official template) asks before it spends, as `execute` does: without a terminal it
// refuses unless --yes, and at a real terminal (a pseudo-terminal made by script(1)) it shows the
// cost and takes y or n. The runs the sandbox holds tell whether anything was sent.
import { spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { paths } from '../../src/shared/contract'
import { runCliCaptured } from '../helpers/cli'
import { call, useTestSandbox } from '../helpers/sandbox'

const root = fileURLToPath(new URL('../..', import.meta.url))
const sandbox = useTestSandbox()
const home = mkdtempSync(join(tmpdir(), 'sr-run-consent-'))
const csv = join(home, 'rows.csv')
writeFileSync(csv, 'Message\none\ntwo\nthree\n')
const env = () => ({ SKILL_RUNNER_HOME: home, SKILL_RUNNER_TOKEN: sandbox.token, NO_COLOR: '1' })

async function runCount(): Promise<number> {
  return (await call<{ totalCount: number }>(sandbox, paths.runs())).body.totalCount
}

/** Quotes one argument for the shell line script(1) runs. */
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

/**
 * The command line at a terminal: script(1) gives it a pseudo-terminal; once the question is
 * asked, `answer` is typed. Resolves with what the terminal showed and the exit code.
 */
function atTerminal(args: string[], answer: string): Promise<{ code: number; screen: string }> {
  const line = ['node', join(root, 'bin', 'skill-runner.js'), ...args].map(quote).join(' ')
  const child = spawn('script', ['-qec', line, '/dev/null'], {
    cwd: root,
    env: { ...process.env, ...env() },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let screen = ''
  let answered = false
  const onData = (chunk: Buffer) => {
    screen += chunk.toString('utf8')
    if (!answered && screen.includes('(y or yes / n or no)')) {
      answered = true
      child.stdin.write(`${answer}\r`)
    }
  }
  child.stdout.on('data', onData)
  child.stderr.on('data', onData)
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => {
      child.stdin.destroy()
      resolve({ code: code ?? -1, screen })
    })
  })
}

const runArgs = () => ['run', csv, '--template', 'row-echo', '--base-url', sandbox.url]

describe('run asks before it spends', () => {
  it('without a terminal and without --yes it refuses, exit 1, and sends nothing', async () => {
    const before = await runCount()
    const r = await runCliCaptured([...runArgs(), '--json'], env())
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('Nothing was sent: confirm with --yes')
    expect(r.stderr).toContain('Run the template “Row echo” (row-echo) on 3 rows.')
    expect(r.stdout).toBe('')
    expect(await runCount()).toBe(before)
  })

  it('with --yes it sends, once', async () => {
    const before = await runCount()
    const r = await runCliCaptured([...runArgs(), '--yes', '--watch', '--json'], env())
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout).run.totalTasks).toBe(3)
    expect(await runCount()).toBe(before + 1)
  })

  it('at a terminal it shows the cost and asks: n sends nothing, y sends', async () => {
    writeFileSync(csv, 'Message\nfour\nfive\n')
    const before = await runCount()
    const no = await atTerminal(runArgs(), 'n')
    // The run above ended: its cost per row is the estimate, said with its source.
    expect(no.screen).toMatch(/About \d+ credits? \(estimate from run run_\w+/)
    expect(no.screen).toMatch(
      /Send 2 rows and pay about \d+ credits?: 2 rows at \d+ credits? per row\?/,
    )
    expect(no.screen).toContain('Not confirmed; nothing was sent.')
    expect(no.code).toBe(1)
    expect(await runCount()).toBe(before)

    const yes = await atTerminal(runArgs(), 'y')
    expect(yes.screen).toContain('(y or yes / n or no)')
    expect(yes.code, yes.screen).toBe(0)
    expect(await runCount()).toBe(before + 1)
    expect(yes.screen).toMatch(/run run_\w+ accepted/)
  })
})

describe('run --rest-of PILOT_RUN', () => {
  it('sends the rows the pilot did not, through the same consent, as one batch', async () => {
    const book = join(home, 'twelve.csv')
    writeFileSync(
      book,
      ['Message', ...Array.from({ length: 12 }, (_, i) => `m${i + 1}`)].join('\n'),
    )
    const pilot = await runCliCaptured(
      ['run', book, '--template', 'row-echo', '--rows', '2-4', '--yes', '--watch', '--json'].concat(
        ['--base-url', sandbox.url],
      ),
      env(),
    )
    expect(pilot.code, pilot.stderr).toBe(0)
    const pilotRunId = JSON.parse(pilot.stdout).run.runId as string
    const rest = (...extra: string[]) =>
      runCliCaptured(['run', '--rest-of', pilotRunId, ...extra, '--base-url', sandbox.url], env())

    const before = await runCount()
    const unconfirmed = await rest('--json')
    expect(unconfirmed.code).toBe(1)
    expect(unconfirmed.stderr).toContain(
      `These are the rows of twelve.csv that the pilot (run ${pilotRunId}) did not send: rows 5 to 13`,
    )
    expect(unconfirmed.stderr).toMatch(/About 9 credits? \(estimate from run/)
    expect(unconfirmed.stderr).toContain('Nothing was sent: confirm with --yes')
    expect(await runCount()).toBe(before)

    const mixed = await runCliCaptured(
      ['run', book, '--rest-of', pilotRunId, '--base-url', sandbox.url],
      env(),
    )
    expect(mixed.code).toBe(2)

    const sent = await rest('--yes', '--watch', '--json')
    expect(sent.code, sent.stderr).toBe(0)
    const restRun = JSON.parse(sent.stdout).run
    expect(restRun.totalTasks).toBe(9)
    expect(await runCount()).toBe(before + 1)

    const history = JSON.parse(
      (await runCliCaptured(['history', '--json', '--base-url', sandbox.url], env())).stdout,
    )
    const byRun = new Map(history.items.map((i: { runId: string }) => [i.runId, i]))
    expect(byRun.get(restRun.runId)).toMatchObject({ batchOfRunId: pilotRunId })
    expect(byRun.get(pilotRunId)).toMatchObject({ batchRests: [restRun.runId] })

    // Everything is sent now: nothing more, exit 1, and no run.
    const again = await rest('--yes')
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('Nothing is left to send')
    expect(await runCount()).toBe(before + 1)
  })
})
