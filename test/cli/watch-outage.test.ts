// A watch outlives a service that goes away mid-run: `runs watch` says it cannot reach the
// service (on stderr, once), keeps asking, and finishes the run when the service is back. The
// sandbox keeps its state in a file, so it restarts on the same port with the run half done.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli } from '../../src/cli/main'
import type { RunDetail } from '../../src/shared/contract'
import { sendStraight, startTestSandbox, type TestSandbox } from '../helpers/sandbox'
import { until } from '../helpers/wait'

let sandbox: TestSandbox | undefined
afterEach(async () => {
  await sandbox?.close()
  sandbox = undefined
})

/** `runs watch` in-process, its stderr readable while it runs. */
function watch(runId: string, url: string, home: string, token: string) {
  const out = { stdout: '', stderr: '' }
  const code = runCli(['runs', 'watch', runId, '--base-url', url, '--json'], {
    stdout: { write: (t: string) => (out.stdout += t), isTTY: false },
    stderr: { write: (t: string) => (out.stderr += t), isTTY: false },
    stdin: Object.assign(Readable.from([]), { isTTY: false }),
    env: { SKILL_RUNNER_HOME: home, SKILL_RUNNER_TOKEN: token, SKILL_RUNNER_RETRY_MS: '300' },
  })
  return { out, code }
}

describe('runs watch through an outage of the service', () => {
  it('says it cannot reach the service, keeps going, and finishes when it is back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sr-outage-'))
    const dbPath = join(dir, 'sandbox.db')
    // Rows slow enough that the watch, however slowly it starts, sees the run under way.
    sandbox = await startTestSandbox({ dbPath, taskMs: 3000, tokens: ['tok-outage'] })
    const { port, url } = sandbox
    const rows = Array.from({ length: 6 }, (_, i) => ({ message: `row ${i}` }))
    const runId = await sendStraight(sandbox, rows)
    const { out, code } = watch(runId, url, join(dir, 'home'), 'tok-outage')

    // The watch has seen the run under way; then the service goes away.
    await until(() => out.stderr.includes('rows'))
    await sandbox.close()
    sandbox = undefined
    await until(() => out.stderr.includes('Can’t reach the service since'))
    expect(out.stderr).toMatch(/trying again every \d+ s/)
    expect(out.stdout).toBe('')

    // Back on the same port with the same state: the watch picks up and the run finishes.
    sandbox = await startTestSandbox({ dbPath, port, taskMs: 50, tokens: ['tok-outage'] })
    expect(await code).toBe(0)
    expect(out.stderr).toContain('The service answers again; still watching.')
    // Said once, not at every failed look.
    expect(out.stderr.match(/Can’t reach the service/g)).toHaveLength(1)
    const detail = JSON.parse(out.stdout) as RunDetail
    expect(detail.run.runId).toBe(runId)
    expect(detail.run.status).toBe('succeeded')
    expect(detail.run.completedTasks).toBe(6)
  }, 60_000)

  it('a refused credential still stops the watch with its error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sr-outage-'))
    const dbPath = join(dir, 'sandbox.db')
    sandbox = await startTestSandbox({ dbPath, taskMs: 3000, tokens: ['tok-first'] })
    const { port, url } = sandbox
    const runId = await sendStraight(sandbox, [
      { message: 'a' },
      { message: 'b' },
      { message: 'c' },
    ])
    const { out, code } = watch(runId, url, join(dir, 'home'), 'tok-first')
    await until(() => out.stderr.includes('rows'))
    await sandbox.close()
    // The service comes back, but no longer accepts this token.
    sandbox = await startTestSandbox({ dbPath, port, taskMs: 400, tokens: ['tok-other'] })
    expect(await code).toBe(3)
    expect(out.stderr).not.toContain('still watching')
    expect(out.stdout).toBe('')
  }, 60_000)
})
