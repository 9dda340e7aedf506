// What History calls a submission's template, from what this computer keeps: the real engine,
// real SQLite and the real sandbox over HTTP. A sent run names its template; a submission not
// sent yet borrows the name from another run of the same template seen here, or from the
// template's schema saved for offline use; a template nothing here names has no name (the window
// then says its kind and id). The command line's call, without the schema cache, still names
// templates from the runs seen.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Connection, Engine } from '../../src/core/engine'
import { refreshUnfinished } from '../../src/core/flows/history/refresh-unfinished'
import { listHistory } from '../../src/core/flows/history/history-view'
import { runEnded, testEngine } from '../helpers/engine'
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox'

let sandbox: TestSandbox
let engine: Engine
let connection: Connection

beforeAll(async () => {
  sandbox = await startTestSandbox()
  engine = testEngine(mkdtempSync(join(tmpdir(), 'sr-history-names-')))
  await engine.addEnvironment({ name: 'Local', baseUrl: sandbox.url, token: sandbox.token })
  connection = await engine.connect({ env: 'Local' })
})
afterAll(async () => {
  await engine.close()
  await sandbox.close()
})

const journal = (templateId: string, message: string) =>
  engine.submissions.journal(connection, {
    target: { kind: 'template', templateId },
    rows: [{ message }],
  })

describe('the name History gives a submission’s template', () => {
  it('comes from its run, another run of it, its saved schema, or nowhere', async () => {
    const sent = await journal('row-echo', 'sent')
    const { runId } = await engine.submissions.send(connection, sent)
    await runEnded(connection, runId)
    await refreshUnfinished(engine.history, connection, 20)
    const notSent = await journal('row-echo', 'not sent yet')
    await engine.schemas.template(connection, 'product-description-writer')
    const schemaOnly = await journal('product-description-writer', 'schema saved')
    const unknown = await journal('a-template-nobody-named', 'unknown')

    const names = (page: ReturnType<typeof listHistory>) =>
      new Map(page.items.map((item) => [item.id, item.targetName]))
    const inWindow = names(
      listHistory(
        engine.history,
        engine.submissions,
        () => 'credits',
        {},
        {
          schemas: engine.schemas,
        },
      ),
    )
    expect(inWindow.get(sent.id)).toBe('Row echo')
    expect(inWindow.get(notSent.id)).toBe('Row echo')
    expect(inWindow.get(schemaOnly.id)).toBe('Product description writer')
    expect(inWindow.get(unknown.id)).toBe('')

    const onCommandLine = names(listHistory(engine.history, engine.submissions, () => 'credits'))
    expect(onCommandLine.get(sent.id)).toBe('Row echo')
    expect(onCommandLine.get(schemaOnly.id)).toBe('')
  })
})
