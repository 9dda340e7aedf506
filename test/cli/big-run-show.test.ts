// `runs show` of a run of 6,000 rows (past the size the command line holds whole): its detail is
// read into the history and written a page at a time, the same JSON document a whole reading
// gives; its text lists every row.
import { expect, it } from 'vitest'
import { paths, runDetailSchema } from '../../src/shared/contract'
import { BUYER_TOKEN } from '../helpers/buyer-seed'
import { useCliOnSandbox } from '../helpers/cli'
import { pastRun, usageSandbox } from '../helpers/usage-seed'

const ROWS = 6_000
const RUN_ID = 'run_big_show'
const { sandbox, cli } = useCliOnSandbox(
  'sr-cli-big-show-',
  usageSandbox([
    { ...pastRun(Math.floor(Date.now() / 1000), 1, ROWS), failedRows: 7, runId: RUN_ID },
  ]),
  BUYER_TOKEN,
)

it('shows a big run from the history, as its whole detail reads', async () => {
  const shown = await cli(['runs', 'show', RUN_ID, '--json'])
  expect(shown.code).toBe(0)
  const answer = await fetch(`${sandbox.url}${paths.run(RUN_ID)}`, {
    headers: { Authorization: `Bearer ${BUYER_TOKEN}` },
  })
  const whole = runDetailSchema.parse(await answer.json())
  expect(whole.tasks).toHaveLength(ROWS)
  expect(shown.stdout).toBe(`${JSON.stringify(whole, null, 2)}\n`)

  const text = await cli(['runs', 'show', RUN_ID])
  expect(text.code).toBe(0)
  expect(text.stdout.split('\n').filter((line) => /_task_\d+/.test(line))).toHaveLength(ROWS)
})
