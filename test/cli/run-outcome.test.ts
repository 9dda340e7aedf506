// A run the service calls "succeeded" with a failed row reads "Finished with 1 failed (2 of 3
// succeeded)" on the command line too (runs show, runs list); its --json stays the service's.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunDetail } from '../../src/shared/contract'
import { runCliOn } from '../helpers/cli'
import { sendStraight, startTestSandbox, waitForRun, type TestSandbox } from '../helpers/sandbox'

let sb: TestSandbox
let runId = ''
const home = mkdtempSync(join(tmpdir(), 'sr-outcome-'))
const cli = (args: string[]) => runCliOn({ baseUrl: sb.url, token: sb.token, home }, args)

beforeAll(async () => {
  sb = await startTestSandbox({ tokens: ['tok-outcome'] })
  runId = await sendStraight(sb, [
    { message: 'one' },
    { message: 'two [[fail]]' },
    { message: 'three' },
  ])
  await waitForRun(sb, runId)
})
afterAll(() => sb.close())

describe('how a run ended, on the command line', () => {
  it('runs show and runs list say it finished with a failed row', async () => {
    const shown = await cli(['runs', 'show', runId])
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain('status: Finished with 1 failed (2 of 3 succeeded)')
    expect(shown.stdout).not.toContain('Succeeded,')
    const listed = await cli(['runs', 'list'])
    expect(listed.stdout).toContain('Finished with 1 failed (2 of 3 succeeded)')
  })

  it('keeps the service’s JSON and a "no" exit for runs watch', async () => {
    const json = await cli(['runs', 'show', runId, '--json'])
    const detail = JSON.parse(json.stdout) as RunDetail
    expect(detail.run.status).toBe('succeeded')
    expect(detail.run.failedTasks).toBe(1)
    expect((await cli(['runs', 'watch', runId, '--json'])).code).toBe(1)
  })
})
