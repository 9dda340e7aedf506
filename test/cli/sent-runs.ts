// What the tests of `runs redo` and `runs keep` start from: a run of row-echo sent from this
// computer's journal and ended, and the results workbook `runs results` writes for a run.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { expect } from 'vitest'
import type { runCliOn } from '../helpers/cli'
import { runEnded, sendRowEcho, testEngine } from '../helpers/engine'

interface Place {
  home: string
  sandbox: { url: string; token: string }
}

/** Waits, with an engine on the data folder, until the run has ended. */
export async function ended({ home, sandbox }: Place, runId: string): Promise<void> {
  const engine = testEngine(home, { tokenOverride: sandbox.token })
  try {
    await runEnded(await engine.connect({ baseUrl: sandbox.url }), runId)
  } finally {
    await engine.close()
  }
}

/** Sends one row per message (sheet rows 2, 3, ...), journaled as a run from here; its id once ended. */
export async function sentAndEnded({ home, sandbox }: Place, messages: string[]): Promise<string> {
  const engine = testEngine(home, { tokenOverride: sandbox.token })
  try {
    const connection = await engine.connect({ baseUrl: sandbox.url })
    const rows = messages.map((message) => ({ message }))
    return await sendRowEcho(
      engine,
      connection,
      rows,
      rows.map((_, i) => i + 2),
    )
  } finally {
    await engine.close()
  }
}

/** The results workbook of a run, written by `runs results`, with its Results sheet. */
export async function resultsWorkbook(
  cli: (args: string[]) => ReturnType<typeof runCliOn>,
  runId: string,
  prefix: string,
) {
  const path = join(mkdtempSync(join(tmpdir(), prefix)), 'results.xlsx')
  expect((await cli(['runs', 'results', runId, '-o', path])).code).toBe(0)
  const book = new ExcelJS.Workbook()
  await book.xlsx.readFile(path)
  const sheet = book.getWorksheet('Results')!
  return { path, book, sheet, headers: sheet.getRow(1).values as unknown[] }
}
