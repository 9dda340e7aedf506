// `runs redo` against the sandbox: chosen rows of a run sent again as a new run, only once
// confirmed; named by sheet row or marked in the results workbook's Redo? column; an earlier
// redo of the same rows does not block a new one, and a redo whose answer was lost is sent again
// under the same request, so it never makes two runs.
import { beforeAll, describe, expect, it } from 'vitest'
import { paths } from '../../src/shared/contract'
import { useCliOnSandbox } from '../helpers/cli'
import { testEngine } from '../helpers/engine'
import { ended, resultsWorkbook, sentAndEnded } from './sent-runs'

const { sandbox, home, cli } = useCliOnSandbox('sr-redo-home-')
let runId: string
/** The newest redo of sheet rows 3 and 5. */
let latestRedo: string
/** The redo of sheet row 4 sent from the results workbook's Redo? column. */
let workbookRedo: string

beforeAll(async () => {
  runId = await sentAndEnded({ home, sandbox }, ['a', 'b', 'c', 'd'])
})

async function runCount(): Promise<number> {
  const listed = await cli(['runs', 'list', '--json'])
  return JSON.parse(listed.stdout).totalCount
}

/** What this computer journaled for a run: its rows and what it redoes. */
async function journaled(id: string) {
  const engine = testEngine(home, { tokenOverride: sandbox.token })
  try {
    const connection = await engine.connect({ baseUrl: sandbox.url })
    return engine.submissions.byRun(connection.historyKey, id)
  } finally {
    await engine.close()
  }
}

describe('runs redo', () => {
  it('sends nothing without --yes where nobody can be asked', async () => {
    const before = await runCount()
    const result = await cli(['runs', 'redo', runId, '--rows', '3,5'])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('2 rows to redo: row 3, row 5')
    expect(result.stderr).toContain(`sent before, in run ${runId}; they are sent again as chosen`)
    expect(result.stderr).not.toContain('failed rows')
    expect(result.stderr).toMatch(/Nothing was sent: confirm with --yes/)
    expect(await runCount()).toBe(before)
  })

  it('sends only the named rows with --yes, linked to the run, and again when asked again', async () => {
    const first = await cli(['runs', 'redo', runId, '--rows', '3,5', '--yes', '--json'])
    expect(first.code).toBe(0)
    const redo = JSON.parse(first.stdout)
    expect(Object.keys(redo)).toEqual(['runId', 'status', 'acceptedAtUnix', 'clientRequestId'])
    expect(await journaled(redo.runId)).toMatchObject({
      retryOfRunId: runId,
      rows: [{ message: 'b' }, { message: 'd' }],
      rowNumbers: [3, 5],
    })
    // The same rows once more: a new redo, not answered with the earlier one.
    const second = await cli(['runs', 'redo', runId, '--rows', '3,5', '--yes', '--json'])
    expect(second.code).toBe(0)
    latestRedo = JSON.parse(second.stdout).runId
    expect(latestRedo).not.toBe(redo.runId)
  })

  it('a redo whose answer was lost is sent again under the same request: one run', async () => {
    const before = await runCount()
    sandbox.injectFault({
      method: 'POST',
      path: paths.runRows('row-echo'),
      drop: 'after',
      times: 4, // every attempt of one command
    })
    const lost = await cli(['runs', 'redo', runId, '--rows', '2', '--yes', '--json'])
    expect(lost.code).not.toBe(0)
    const again = await cli(['runs', 'redo', runId, '--rows', '2', '--yes', '--json'])
    expect(again.code).toBe(0)
    expect(again.stderr).toMatch(/sent again with the same request ID/)
    expect(await runCount()).toBe(before + 1)
  })

  it('takes the rows marked in the results workbook’s Redo? column', async () => {
    const {
      path: results,
      book,
      sheet,
      headers,
    } = await resultsWorkbook(cli, runId, 'sr-redo-results-')
    const redoColumn = headers.indexOf('Redo?')
    expect(redoColumn).toBeGreaterThan(0)
    sheet.getRow(4).getCell(redoColumn).value = 'x' // sheet row 4 of the run: "c"
    await book.xlsx.writeFile(results)
    const result = await cli(['runs', 'redo', runId, '--from', results, '--yes', '--json'])
    expect(result.code).toBe(0)
    workbookRedo = JSON.parse(result.stdout).runId
    expect(await journaled(workbookRedo)).toMatchObject({
      rows: [{ message: 'c' }],
      rowNumbers: [4],
    })
  })

  it('the results workbook shows each redone row’s kept version, the newest that succeeded', async () => {
    // Each redo's row counts once it succeeded: both must have ended first.
    await ended({ home, sandbox }, latestRedo)
    await ended({ home, sandbox }, workbookRedo)
    const { sheet, headers } = await resultsWorkbook(cli, runId, 'sr-redo-kept-')
    const output = headers.indexOf('row')
    const link = (sheetRow: number) => {
      const line = (sheet.getSheetValues() as unknown[][]).find((l) => l?.[1] === sheetRow)!
      return JSON.stringify(line[output])
    }
    expect(link(3)).toContain(latestRedo)
    expect(link(5)).toContain(latestRedo)
    // Row 4 was redone once, later, from the workbook: that redo is its kept version.
    expect(link(4)).toContain(workbookRedo)
  })

  it('refuses rows the run does not have, and needs exactly one way of naming rows', async () => {
    const missing = await cli(['runs', 'redo', runId, '--rows', '9', '--yes'])
    expect(missing.code).not.toBe(0)
    expect(missing.stderr).toContain('has no sheet row 9 (its rows are 2 to 5)')
    expect((await cli(['runs', 'redo', runId])).code).toBe(2)
  })
})
