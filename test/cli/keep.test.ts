// `runs keep` against the sandbox: a row sent again has versions; without --version the command
// shows them and the kept one (the newest that succeeded), with --version it keeps the one chosen,
// remembered on this computer, and `runs results` follows the choice.
import { beforeAll, describe, expect, it } from 'vitest'
import { useCliOnSandbox } from '../helpers/cli'
import { ended, resultsWorkbook, sentAndEnded } from './sent-runs'

const { sandbox, home, cli } = useCliOnSandbox('sr-keep-home-')
let runId: string
let redoRunId: string

beforeAll(async () => {
  runId = await sentAndEnded({ home, sandbox }, ['a', 'b', 'c'])
  const redo = await cli(['runs', 'redo', runId, '--rows', '3', '--yes', '--json'])
  expect(redo.code).toBe(0)
  redoRunId = JSON.parse(redo.stdout).runId
  await ended({ home, sandbox }, redoRunId)
})

/** The results workbook's line for a sheet row, as text (its output's link names the run). */
async function resultsLine(sheetRow: number): Promise<string> {
  const { sheet } = await resultsWorkbook(cli, runId, 'sr-keep-results-')
  const lines = sheet.getSheetValues() as unknown[][]
  return JSON.stringify(lines.find((line) => line?.[1] === sheetRow))
}

describe('runs keep', () => {
  it('shows a row’s versions and the one kept by the rule', async () => {
    const shown = await cli(['runs', 'keep', runId, '--row', '3'])
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain('row 3: version 2 kept (the newest that succeeded)')
    expect(shown.stdout).toContain('  1. as first sent (succeeded)')
    expect(shown.stdout).toContain(`  2. sent again in ${redoRunId} (succeeded)  ← kept`)
    expect(await resultsLine(3)).toContain(redoRunId)
  })

  it('keeps the version chosen, and the results workbook follows', async () => {
    const kept = await cli(['runs', 'keep', runId, '--row', '3', '--version', '1', '--json'])
    expect(kept.code).toBe(0)
    expect(JSON.parse(kept.stdout)).toEqual({
      row: 3,
      kept: 1,
      keptBy: 'choice',
      versions: [
        { version: 1, runId, status: 'succeeded' },
        { version: 2, runId: redoRunId, status: 'succeeded' },
      ],
    })
    // Asked again later, in another process: the choice was kept on this computer.
    const shown = await cli(['runs', 'keep', runId, '--row', '3'])
    expect(shown.stdout).toContain('row 3: version 1 kept (chosen)')
    const line = await resultsLine(3)
    expect(line).toContain(runId)
    expect(line).not.toContain(redoRunId)
  })

  it('refuses a version or a row the run does not have, and needs --row', async () => {
    const tooFar = await cli(['runs', 'keep', runId, '--row', '3', '--version', '5'])
    expect(tooFar.code).not.toBe(0)
    expect(tooFar.stderr).toContain('there is no version 5')
    const noRow = await cli(['runs', 'keep', runId, '--row', '9'])
    expect(noRow.code).not.toBe(0)
    expect(noRow.stderr).toContain('has no sheet row 9')
    expect((await cli(['runs', 'keep', runId])).code).toBe(2)
    const help = await cli(['runs', 'keep', '--help'])
    expect(help.stdout).toContain('--version')
    expect(help.stdout).toContain('1 is the row as the run first sent it')
  })
})
