// `runs retry-failed RUN --from FIXED` against the sandbox: the failed rows of a run sent from a
// workbook are sent again with the cells the corrected workbook changed, only once confirmed; a
// workbook whose rows moved is refused and nothing is sent.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { confirmPlan, planSubmission } from '../../src/core/flows/spend'
import { parseInputWorkbook } from '../../src/core/workbooks'
import { useCliOnSandbox } from '../helpers/cli'
import { runEnded, testEngine } from '../helpers/engine'

const { sandbox, home, cli } = useCliOnSandbox('sr-retry-from-')
let runId: string

function csv(name: string, lines: string[]): string {
  const path = join(home, name)
  writeFileSync(path, ['Message', ...lines].join('\n'))
  return path
}

beforeAll(async () => {
  const engine = testEngine(home, { tokenOverride: sandbox.token })
  try {
    const connection = await engine.connect({ baseUrl: sandbox.url })
    const planned = await planSubmission(
      engine,
      connection,
      (path, schema) => parseInputWorkbook({ path }, schema, { checkFiles: true }),
      {
        file: csv('sent.csv', ['one', 'two [[fail]]', 'three']),
        target: { kind: 'template', templateId: 'row-echo' },
      },
    )
    runId = (await confirmPlan(engine, planned, { confirmed: true })).submission.runId
    await runEnded(connection, runId)
  } finally {
    await engine.close()
  }
})

const runCount = async () =>
  JSON.parse((await cli(['runs', 'list', '--json'])).stdout).totalCount as number

describe('runs retry-failed --from', () => {
  it('refuses a workbook whose rows moved, and sends nothing', async () => {
    const before = await runCount()
    const moved = csv('moved.csv', ['zero', 'one', 'two', 'three'])
    const result = await cli(['runs', 'retry-failed', runId, '--from', moved, '--yes'])
    expect(result.code).not.toBe(0)
    expect(result.stderr).toContain('Row 2 of “moved.csv” is not the row this run sent as row 2')
    expect(await runCount()).toBe(before)
  })

  it('sends the failed row with the corrected cells once confirmed', async () => {
    const before = await runCount()
    const fixed = csv(
      'fixed.csv',
      ['one', 'two, now fine', 'three'].map((t) => `"${t}"`),
    )
    const refused = await cli(['runs', 'retry-failed', runId, '--from', fixed])
    expect(refused.code).toBe(1)
    expect(await runCount()).toBe(before)

    const result = await cli(['runs', 'retry-failed', runId, '--from', fixed, '--yes', '--json'])
    expect(result.code).toBe(0)
    expect(result.stderr).toContain('1 failed row: row 3')
    expect(result.stderr).toContain('Row 3: message changed in fixed.csv')
    const sent = JSON.parse(result.stdout) as { runId: string }
    expect(await runCount()).toBe(before + 1)
    const shown = JSON.parse((await cli(['runs', 'show', sent.runId, '--json'])).stdout)
    expect(shown.run.totalTasks).toBe(1)
  })
})
