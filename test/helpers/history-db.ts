/**
 * A history database as an earlier Skill Runner left it: the schema taken back, migration by
 * migration, to `version` (each step undoes one entry of MIGRATIONS in src/core/storage/db.ts,
 * newest first). A migration test writes rows of that shape, then opens it again to migrate.
 */
import type { Db } from '../../src/core/storage/db'

/** What undoes MIGRATIONS[i] (taking the database from version i + 1 back to i). */
const UNDO: Record<number, string> = {
  7: 'DROP TABLE prepare_drafts;',
  8: `DROP INDEX submissions_batch_id;
    ALTER TABLE submissions DROP COLUMN batch_id;
    ALTER TABLE submissions DROP COLUMN send_kind;
    DROP TABLE batches; DROP TABLE batch_set_aside; DROP TABLE run_outcomes;`,
  9: 'DROP TABLE usage_runs; DROP TABLE usage_limits;',
  10: 'DROP TABLE run_tasks; DROP TABLE run_outputs;',
  11: 'DROP TABLE submission_rows; ALTER TABLE submissions DROP COLUMN rows_sha256;',
  12: 'DROP INDEX run_outputs_rows;',
}

export function rollBackTo(db: Db, version: number): void {
  const current = Number(
    (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version,
  )
  for (let v = current - 1; v >= version; v -= 1) {
    const undo = UNDO[v]
    if (undo === undefined)
      throw new Error(`the test helper cannot undo migration ${v}: add it to UNDO`)
    // One statement at a time: an ALTER TABLE in a longer script is not always carried out.
    for (const statement of undo
      .split(';')
      .map((s) => s.trim())
      .filter(Boolean))
      db.exec(statement)
  }
  db.exec(`PRAGMA user_version = ${version}`)
}
