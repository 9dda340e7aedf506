/** The `settings` table: text values by key, shared by every front door on this computer. */
import type { Db } from '../db'
import { columns, readOptionalRow } from '../read-row'

const valueRow = columns({ value: 'text' })

export class SettingsTable {
  constructor(private readonly db: Db) {}

  /** The stored value, or null when the key was never set (or was cleared). */
  get(key: string): string | null {
    const row = this.db.prepare('SELECT value FROM settings WHERE key = ?').get(key)
    return readOptionalRow(valueRow, row)?.value ?? null
  }

  /** Stores a value; null removes the key. */
  set(key: string, value: string | null) {
    if (value === null) this.db.prepare('DELETE FROM settings WHERE key = ?').run(key)
    else
      this.db
        .prepare(
          'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
        )
        .run(key, value)
  }
}
