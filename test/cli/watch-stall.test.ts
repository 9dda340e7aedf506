// `runs watch` says when a run has stalled, what that means and what to do, and when it moves
// again. The watch's clock is the test's: set five minutes ahead, nothing has changed for five
// minutes when the watch first looks; set right again, the next finished rows read as moving.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli } from '../../src/cli/main'
import { sendStraight, startTestSandbox, type TestSandbox } from '../helpers/sandbox'
import { until } from '../helpers/wait'

let sandbox: TestSandbox | undefined
afterEach(async () => {
  await sandbox?.close()
  sandbox = undefined
})

describe('runs watch and a stalled run', () => {
  it('says it stalled with what to do, then that it moves again, and finishes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sr-stall-'))
    // Rows slow enough that the watch looks before the first ones finish.
    sandbox = await startTestSandbox({ taskMs: 3000, tokens: ['tok-stall'] })
    const rows = Array.from({ length: 6 }, (_, i) => ({ message: `row ${i}` }))
    const runId = await sendStraight(sandbox, rows)
    const clock = { aheadMs: 5 * 60_000 }
    const out = { stdout: '', stderr: '' }
    const code = runCli(['runs', 'watch', runId, '--base-url', sandbox.url, '--json'], {
      stdout: { write: (t: string) => (out.stdout += t), isTTY: false },
      stderr: { write: (t: string) => (out.stderr += t), isTTY: false },
      stdin: Object.assign(Readable.from([]), { isTTY: false }),
      env: { SKILL_RUNNER_HOME: join(dir, 'home'), SKILL_RUNNER_TOKEN: 'tok-stall' },
      now: () => Date.now() + clock.aheadMs,
    })

    await until(() => out.stderr.includes('Stalled: no row has changed for'))
    expect(out.stderr).toMatch(/Stalled: no row has changed for 5 min\. .*Nothing is lost\./)
    expect(out.stderr).toContain('contact the creator of the template or listing')
    clock.aheadMs = 0
    expect(await code).toBe(0)
    expect(out.stderr).toContain('The run is moving again.')
    // Each said once.
    expect(out.stderr.match(/Stalled:/g)).toHaveLength(1)
    expect(out.stderr.match(/moving again/g)).toHaveLength(1)
    expect(JSON.parse(out.stdout)).toMatchObject({ run: { runId, status: 'succeeded' } })
  }, 60_000)
})
