// The check on the built-in Sandbox's saved schema answers only when the engine would not ask
// the Sandbox either; otherwise null, and the caller makes the engine.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Environments } from '../../src/core/environments/environments'
import { checkOnSavedSchema } from '../../src/core/flows/prepare/saved-check'
import { openDb } from '../../src/core/storage/db'
import { SchemaCacheTable } from '../../src/core/storage/tables/schema-cache'
import type { OfficialTemplateSchema } from '../../src/shared/contract'

const schema = {
  templateId: 'row-echo',
  name: 'Row echo',
  fields: [{ key: 'message', label: 'Message', type: 'string', required: true }],
  columns: [{ fieldKey: 'message', headerLabel: 'Message', order: 0 }],
} as unknown as OfficialTemplateSchema

describe('a check on a saved Sandbox schema', () => {
  let home: string
  let csv: string
  const SAVED_AT = 2_000

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'sr-saved-check-'))
    csv = join(home, 'one.csv')
    writeFileSync(csv, 'Message\nhello\n')
    const db = openDb(join(home, 'history.db'))
    new SchemaCacheTable(db).put('builtin:sandbox', 'row-echo', { schema, fetchedAtMs: SAVED_AT })
    new Environments(db).add({ name: 'Work', baseUrl: 'https://skills.example.com' })
    db.close()
  })
  afterEach(() => rmSync(home, { recursive: true, force: true }))

  const check = (over: { programSinceMs?: number; envName?: string; templateId?: string }) =>
    checkOnSavedSchema({
      home,
      templateId: 'row-echo',
      programSinceMs: 1_000,
      path: csv,
      options: { onThisThreadUpToBytes: 1024 * 1024 },
      ...over,
    })

  it('reads the workbook against the copy the Sandbox gave since this program was written', async () => {
    const done = await check({})
    expect(done?.found).toMatchObject({ name: 'Row echo', fromCache: false, fetchedAtMs: SAVED_AT })
    expect(done?.result.valid).toBe(true)
    expect(await check({ envName: 'sandbox' })).not.toBeNull()
  })

  it('leaves to the engine a copy older than the program, another template or environment', async () => {
    expect(await check({ programSinceMs: 3_000 })).toBeNull()
    expect(await check({ templateId: 'other' })).toBeNull()
    expect(await check({ envName: 'Work' })).toBeNull()
    expect(await check({ envName: 'Nowhere' })).toBeNull()
    const db = openDb(join(home, 'history.db'))
    new Environments(db).setDefault('Work')
    db.close()
    expect(await check({})).toBeNull()
  })

  it('never makes a history that is not there', async () => {
    rmSync(join(home, 'history.db'))
    expect(await check({})).toBeNull()
  })
})
