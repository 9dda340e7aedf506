// The command-line walk-through in README.md, run as a newcomer would paste it: the blocks are
// read from the README itself (```sh walkthrough, ```sh second-terminal,
// ```sh against-a-service), so the README cannot drift from what works. `npx skill-runner` runs
// this checkout's bin/skill-runner.js (what npx resolves to in the repository) from a scratch
// folder with its own SKILL_RUNNER_HOME. A line whose comment says "exit 1" must exit 1; every
// other line must succeed.
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const readme = readFileSync(join(root, 'README.md'), 'utf8')
const scratch = mkdtempSync(join(tmpdir(), 'skill-runner-readme-'))
symlinkSync(join(root, 'resources'), join(scratch, 'resources'))

afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** The lines of the README's ```sh NAME block. */
function block(name: string): string[] {
  const match = new RegExp('```sh ' + name + '\\n([\\s\\S]*?)```').exec(readme)
  if (!match) throw new Error(`README.md has no \`\`\`sh ${name} block`)
  return match[1]!.split('\n').filter((line) => line.trim() !== '')
}

/** A bash script that runs the lines, checking each one's exit code. */
function script(lines: string[]): string {
  const checked = lines.map((line, i) => {
    const expected = /#.*\bexit 1\b/.test(line) ? 1 : 0
    return [
      `echo "+ ${i + 1}" >&2`,
      'set +e',
      line,
      'code=$?',
      'set -e',
      `[ "$code" -eq ${expected} ] || { echo "line ${i + 1} exited $code, not ${expected}: ${line.replace(/["$`\\]/g, '\\$&')}" >&2; exit 90; }`,
    ].join('\n')
  })
  return [
    'set -e',
    // What `npx skill-runner` runs inside this repository.
    `npx() { if [ "$1" = skill-runner ]; then shift; node ${JSON.stringify(join(root, 'bin', 'skill-runner.js'))} "$@"; else command npx "$@"; fi; }`,
    ...checked,
  ].join('\n')
}

const env = {
  ...process.env,
  SKILL_RUNNER_HOME: join(scratch, 'home'),
  SKILL_RUNNER_TOKEN: '',
  NO_COLOR: '1',
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const port = (server.address() as { port: number }).port
  server.close()
  return port
}

describe('README walk-through', () => {
  it(
    'runs line by line on the built-in Sandbox, writing what it says',
    { timeout: 180_000 },
    () => {
      const r = spawnSync('bash', ['-c', script(block('walkthrough'))], {
        cwd: scratch,
        env,
        encoding: 'utf8',
        timeout: 170_000,
      })
      expect(r.stderr.split('\n').filter((l) => /exited|Error/.test(l))).toEqual([])
      expect(r.status).toBe(0)
      const out = r.stdout
      expect(out).toContain('Token accepted')
      expect(out).toContain('The workbook is valid.')
      const run = JSON.parse(readFileSync(join(scratch, 'try', 'run.json'), 'utf8')) as {
        run: { runId: string; completedTasks: number; failedTasks: number }
      }
      expect(run.run).toMatchObject({ completedTasks: 2, failedTasks: 1 })
      const runId = run.run.runId
      expect(existsSync(join(scratch, 'try', 'echo.xlsx'))).toBe(true)
      expect(existsSync(join(scratch, 'try', 'results.xlsx'))).toBe(true)
      expect(readdirSync(join(scratch, 'try', 'outputs', runId))).toContain('row-002')
      expect(r.stderr).toMatch(/5 rows x 4 credits per task = 20 credits/)
      // runs list shows both runs; history knows the file sent.
      expect(out).toContain(runId)
      expect(out).toMatch(/messages\.csv/)
      expect(out).toContain('review-keyword-miner')
    },
  )

  it(
    'talks to a sandbox started as in a second terminal, with the token from the environment',
    {
      timeout: 60_000,
    },
    async () => {
      const port = String(await freePort())
      const [serve] = block('second-terminal')
      const sandboxArgs = serve!
        .replace(/^npx skill-runner /, '')
        .replace('4010', port)
        .split(/\s+/)
      const sandbox = spawn(
        process.execPath,
        [join(root, 'bin', 'skill-runner.js'), ...sandboxArgs],
        {
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      )
      try {
        let said = ''
        await new Promise<void>((resolve, reject) => {
          sandbox.stdout.setEncoding('utf8').on('data', (t: string) => {
            said += t
            if (said.includes('listening on')) resolve()
          })
          sandbox.once('exit', (code) => reject(new Error(`the sandbox exited (${code})`)))
        })
        const lines = block('against-a-service').map((l) => l.replaceAll('4010', port))
        const r = spawnSync('bash', ['-c', script(lines)], { cwd: scratch, env, encoding: 'utf8' })
        expect(r.stderr.split('\n').filter((l) => /exited/.test(l))).toEqual([])
        expect(r.status).toBe(0)
        expect(r.stdout).toContain(`http://127.0.0.1:${port}`)
        expect(r.stdout).toContain('Token accepted')
        expect(r.stdout).toMatch(/No runs yet/)
      } finally {
        sandbox.kill('SIGTERM')
        if (sandbox.exitCode === null) await once(sandbox, 'exit')
      }
    },
  )
})
