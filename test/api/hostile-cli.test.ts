// The command line, in a process of its own, against a service that answers 500 MB: it stops
// reading, says why, exits as "the service is unavailable" (3, never 4: not a bug) and its peak
// memory stays under 300 MB. A watchdog in the child ends it past 300 MB, so a client that reads
// without a limit fails this test instead of the machine.
import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { hugeJson, startHostileService, type HostileService } from './hostile-service'

const root = fileURLToPath(new URL('../..', import.meta.url))
const RUNAWAY_EXIT = 99

let service: HostileService | undefined
afterEach(async () => {
  await service?.close()
  service = undefined
})

/**
 * The CLI from its source; on exit it prints its peak resident memory on stderr: VmHWM, its own
 * since it started, where Linux has it. A child's maxRSS starts at its parent's size when forked
 * (400 MB for a vitest worker that ran other files first), so it is only the fallback.
 */
function runCliMeasured(
  args: string[],
): Promise<{ code: number | null; stderr: string; peakMb: number; seconds: number }> {
  const main = JSON.stringify(join(root, 'src/cli/main.ts'))
  const script = `
    setInterval(() => {
      if (process.memoryUsage().rss > 300 * 1024 * 1024) process.exit(${RUNAWAY_EXIT})
    }, 10).unref()
    const { runCli } = await import(${main})
    const code = await runCli(process.argv.slice(1))
    const { existsSync, readFileSync } = await import('node:fs')
    const status = existsSync('/proc/self/status') ? readFileSync('/proc/self/status', 'utf8') : ''
    const peak = /VmHWM:\\s+(\\d+)/.exec(status)?.[1] ?? process.resourceUsage().maxRSS
    process.stderr.write('peak-rss-kb ' + peak + '\\n')
    process.exit(code)`
  const home = mkdtempSync(join(tmpdir(), 'sr-hostile-cli-'))
  const started = Date.now()
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script, '--', ...args],
    {
      cwd: root,
      env: { ...process.env, SKILL_RUNNER_HOME: home, SKILL_RUNNER_TOKEN: 'token-ada' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  )
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((resolve) => {
    child.once('close', (code) => {
      const peak = /peak-rss-kb (\d+)/.exec(stderr)
      resolve({
        code,
        stderr,
        peakMb: peak ? Number(peak[1]) / 1024 : Infinity,
        seconds: (Date.now() - started) / 1000,
      })
    })
  })
}

describe('skill-runner against a service that answers 500 MB', () => {
  it('runs list: stops at 32 MB, exits 3 with the reason, under 300 MB', async () => {
    service = await startHostileService((_req, res) => hugeJson(res, 500))
    const result = await runCliMeasured(['runs', 'list', '--base-url', service.url])
    expect(result.code).not.toBe(RUNAWAY_EXIT)
    expect(result.stderr).toContain(
      'The service sent an answer larger than 32 MB; Skill Runner stopped reading it',
    )
    expect(result.code).toBe(3)
    expect(result.peakMb).toBeLessThan(300)
    expect(result.seconds).toBeLessThan(30)
  }, 60_000)

  it('runs list --json with a 500 MB error body: exits 3 with the reason, under 300 MB', async () => {
    service = await startHostileService((_req, res) => hugeJson(res, 500, 502))
    const result = await runCliMeasured(['--json', 'runs', 'list', '--base-url', service.url])
    expect(result.code).not.toBe(RUNAWAY_EXIT)
    expect(result.stderr).toContain('larger than 64 KB; Skill Runner stopped reading it')
    expect(result.code).toBe(3)
    expect(result.peakMb).toBeLessThan(300)
    expect(result.seconds).toBeLessThan(30)
  }, 60_000)
})
