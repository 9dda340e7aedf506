// The New run screen's draft on real SQLite and real files: kept per environment, its workbook
// noticed when changed or gone, a page's content kept as a copy, a sent draft kept as its run only,
// and the migration that adds the table applied to a history written by the previous version.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'libsql'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PrepareDrafts } from '../../src/core/flows/prepare/draft'
import { openDb, SCHEMA_VERSION, type Db } from '../../src/core/storage/db'
import { rollBackTo } from '../helpers/history-db'

/** The history's version once it has the drafts table. */
const DRAFTS_VERSION = 8
import {
  prepareDraftSchema,
  type PrepareDraft,
} from '../../src/shared/bridge/requests/draft-schema'

const choices: PrepareDraft = {
  step: 'send',
  target: { kind: 'template', templateId: 'tmpl_echo' },
  sheet: 'Orders',
  mapping: { 'Customer name': 'name', Notes: null },
  runValues: { tone: 'friendly' },
  pilot: { on: true, rows: 3 },
  sent: null,
}

let home: string
let db: Db
let drafts: PrepareDrafts

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'sr-draft-'))
  db = openDb(join(home, 'history.db'))
  drafts = new PrepareDrafts(db, join(home, 'drafts'))
})
afterEach(() => {
  db.close()
  rmSync(home, { recursive: true, force: true })
})

describe('a draft', () => {
  it('keeps the choices and the user’s own workbook, and notices when it changes or goes', async () => {
    const path = join(home, 'orders.csv')
    writeFileSync(path, 'name\nAda\n')
    await drafts.save('Sandbox', choices, { path, name: 'orders.csv', isCopy: false })

    const same = await drafts.load('sandbox')
    expect(same?.draft).toEqual(choices)
    expect(same?.workbook).toMatchObject({ state: 'same', name: 'orders.csv', path })
    expect(same?.workbook?.state === 'same' && same.workbook.bytes.toString()).toBe('name\nAda\n')
    expect(await drafts.load('Other')).toBeNull()

    writeFileSync(path, 'name\nGrace\n')
    expect((await drafts.load('Sandbox'))?.workbook).toEqual({
      state: 'changed',
      name: 'orders.csv',
    })
    rmSync(path)
    expect((await drafts.load('Sandbox'))?.workbook).toEqual({
      state: 'missing',
      name: 'orders.csv',
    })
  })

  it('keeps a copy of what a page sent, once, and removes it when cleared', async () => {
    const scratch = join(home, 'tmp', 'check-1')
    mkdirSync(scratch, { recursive: true })
    writeFileSync(join(scratch, 'orders.csv'), 'name\nAda\n')
    const source = { path: join(scratch, 'orders.csv'), name: 'orders.csv', isCopy: true }
    await drafts.save('Sandbox', choices, source)
    // Checked again (another sheet, say): the same content is not copied twice.
    await drafts.save('Sandbox', { ...choices, sheet: null }, source)
    rmSync(scratch, { recursive: true })
    expect(readdirSync(join(home, 'drafts'))).toHaveLength(1)

    const restored = await drafts.load('Sandbox')
    expect(restored?.draft.sheet).toBeNull()
    expect(restored?.workbook).toMatchObject({ state: 'same', isCopy: true, name: 'orders.csv' })

    // A check no longer kept (undefined) leaves the workbook as it was.
    await drafts.save('Sandbox', { ...choices, pilot: { on: false, rows: 5 } }, undefined)
    expect((await drafts.load('Sandbox'))?.workbook?.state).toBe('same')

    await drafts.clear('Sandbox')
    expect(await drafts.load('Sandbox')).toBeNull()
    expect(readdirSync(join(home, 'drafts'))).toHaveLength(0)
  })

  it('once sent, keeps only the link to the run: no workbook to send again', async () => {
    const scratch = join(home, 'scratch.csv')
    writeFileSync(scratch, 'name\nAda\n')
    await drafts.save('Sandbox', choices, { path: scratch, name: 'orders.csv', isCopy: true })
    await drafts.markSent('Sandbox', { runId: 'run_1', clientRequestId: 'req-1' })

    const restored = await drafts.load('Sandbox')
    expect(restored?.draft.step).toBe('sent')
    expect(restored?.draft.sent).toEqual({ runId: 'run_1', clientRequestId: 'req-1' })
    expect(restored?.draft.target).toEqual(choices.target)
    expect(restored?.workbook).toBeNull()
    expect(readdirSync(join(home, 'drafts'))).toHaveLength(0)
  })

  it('takes nothing it does not know: a token cannot ride along', () => {
    expect(prepareDraftSchema.safeParse({ ...choices, token: 'secret' }).success).toBe(false)
  })
})

describe('the migration', () => {
  it('adds the drafts table to a history written by the previous version, keeping its rows', async () => {
    db.prepare(
      "INSERT INTO column_mappings (origin, target, headers_key, mapping_json, saved_at_ms) VALUES ('o', 't', 'h', '{}', 1)",
    ).run()
    rollBackTo(db, DRAFTS_VERSION - 1)
    db.close()

    const raw = new Database(join(home, 'history.db'))
    expect(raw.prepare('PRAGMA user_version').get()).toMatchObject({
      user_version: DRAFTS_VERSION - 1,
    })
    raw.close()

    db = openDb(join(home, 'history.db'))
    expect(db.prepare('PRAGMA user_version').get()).toMatchObject({ user_version: SCHEMA_VERSION })
    expect(db.prepare('SELECT COUNT(*) AS n FROM column_mappings').get()).toMatchObject({ n: 1 })
    drafts = new PrepareDrafts(db, join(home, 'drafts'))
    await drafts.save('Sandbox', choices, null)
    expect((await drafts.load('Sandbox'))?.draft).toEqual(choices)
    expect(existsSync(join(home, 'drafts'))).toBe(false)
  })
})
