/** The `environments` table: the environments the user added (the built-in Sandbox has no row). */
import type { Db } from '../db'
import { columns, readRows } from '../read-row'

export interface EnvironmentRecord {
  name: string
  baseUrl: string
  unitLabel: string
}

const environmentRow = columns({ name: 'text', base_url: 'text', unit_label: 'text' })

export class EnvironmentsTable {
  constructor(private readonly db: Db) {}

  /** Every saved environment, in the order they were added. */
  list(): EnvironmentRecord[] {
    const rows = this.db
      .prepare('SELECT name, base_url, unit_label FROM environments ORDER BY created_at_ms, name')
      .all()
    return readRows(environmentRow, rows).map((r) => ({
      name: r.name,
      baseUrl: r.base_url,
      unitLabel: r.unit_label,
    }))
  }

  insert(environment: EnvironmentRecord, createdAtMs: number) {
    this.db
      .prepare(
        'INSERT INTO environments (name, base_url, unit_label, created_at_ms) VALUES (?, ?, ?, ?)',
      )
      .run(environment.name, environment.baseUrl, environment.unitLabel, createdAtMs)
  }

  delete(name: string) {
    this.db.prepare('DELETE FROM environments WHERE name = ?').run(name)
  }

  setUnitLabel(name: string, unitLabel: string) {
    this.db.prepare('UPDATE environments SET unit_label = ? WHERE name = ?').run(unitLabel, name)
  }
}
