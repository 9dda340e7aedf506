// Rows read without zod (storage/read-row.ts `columns`) refuse what zod's flat objects refuse.
import { describe, expect, it } from 'vitest'
import { openDb } from '../../src/core/storage/db'
import { columns, readRow, selectRow } from '../../src/core/storage/read-row'
import { SettingsTable } from '../../src/core/storage/tables/settings'

describe('a flat row checked by its columns', () => {
  const row = columns({ name: 'text', at_ms: 'number' })

  it('keeps the named columns, of the named kinds, and leaves others out', () => {
    expect(readRow(row, { name: 'a', at_ms: 3, extra: 1 })).toEqual({ name: 'a', at_ms: 3 })
  })

  it('stops with the unreadable-entry error at a missing or mistyped column', () => {
    for (const bad of [
      { name: 'a' },
      { name: 1, at_ms: 3 },
      { name: 'a', at_ms: '3' },
      { name: 'a', at_ms: Number.NaN },
      { name: 'a', at_ms: Infinity },
      { name: null, at_ms: 3 },
      [],
      'a',
    ])
      expect(() => readRow(row, bad)).toThrow(/cannot read/)
  })

  it('reads what SQLite hands back', () => {
    const db = openDb(':memory:')
    new SettingsTable(db).set('k', 'v')
    const sql = 'SELECT value, length(value) AS n FROM settings WHERE key = ?'
    expect(selectRow(db, columns({ value: 'text', n: 'number' }), sql, ['k'])).toEqual({
      value: 'v',
      n: 1,
    })
    expect(selectRow(db, columns({ value: 'text' }), sql, ['none'])).toBeNull()
    expect(() => selectRow(db, columns({ value: 'number' }), sql, ['k'])).toThrow(/cannot read/)
    db.close()
  })
})
