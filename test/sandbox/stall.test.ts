// `[[stall]]` in a row's value holds that row `running` (for an hour) while the run's other rows
// finish: a stalled run, for clients to show it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { paths, type RunDetail } from '../../src/shared/contract'
import { call, sendStraight, startTestSandbox, type TestSandbox } from '../helpers/sandbox'

let sb: TestSandbox
beforeAll(async () => {
  sb = await startTestSandbox({ tokens: ['tok-stall'] })
})
afterAll(() => sb.close())

describe('sandbox: a row that stalls', () => {
  it('keeps its row running while the others finish, and the run running', async () => {
    const runId = await sendStraight(sb, [
      { message: 'one' },
      { message: 'two [[stall]]' },
      { message: 'three' },
    ])
    let detail: RunDetail
    for (;;) {
      detail = (await call<RunDetail>(sb, paths.run(runId))).body
      if (detail.run.completedTasks === 2) break
      await new Promise((r) => setTimeout(r, 20))
    }
    expect(detail!.run.status).toBe('running')
    expect(detail!.tasks.map((t) => t.status)).toEqual(['succeeded', 'running', 'succeeded'])
  })
})
