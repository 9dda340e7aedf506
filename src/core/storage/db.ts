/**
 * The local history database (SQLite through libsql): environments, the schema cache, uploads,
 * the submission journal, runs seen and downloads. WAL mode, so the CLI and the app can share one
 * file; a busy timeout, so two writers wait for each other instead of failing. The schema moves
 * forward through numbered migrations recorded in `PRAGMA user_version`.
 *
 * This folder is the only place SQL is written: this file opens and migrates the file, and each
 * table has one repository in tables/ that takes and returns plain typed records.
 */
import { UserFacingError } from '../errors'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type Database from 'libsql'
import { loadLibsql } from './libsql-loader'
import { columns, readOptionalRow } from './read-row'

export type Db = Database.Database

/** Each entry takes the database from version i to i + 1. Never edit a landed one: add. */
const MIGRATIONS: string[] = [
  // 1: environments and settings
  `
  CREATE TABLE environments (
    name TEXT PRIMARY KEY COLLATE NOCASE,
    base_url TEXT NOT NULL,
    unit_label TEXT NOT NULL DEFAULT 'credits',
    created_at_ms INTEGER NOT NULL
  );
  CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
  // 2: schema cache, upload dedupe, the submission journal, runs seen, downloads
  `
  CREATE TABLE schema_cache (
    origin TEXT NOT NULL,
    template_id TEXT NOT NULL,
    schema_json TEXT NOT NULL,
    fetched_at_ms INTEGER NOT NULL,
    PRIMARY KEY (origin, template_id)
  );
  CREATE TABLE uploads (
    origin TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    input_asset_id TEXT NOT NULL,
    filename TEXT NOT NULL,
    mime_type TEXT NOT NULL,
    size_bytes INTEGER NOT NULL,
    uploaded_at_ms INTEGER NOT NULL,
    PRIMARY KEY (origin, sha256)
  );
  CREATE TABLE submissions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    client_request_id TEXT NOT NULL UNIQUE,
    environment TEXT NOT NULL,
    origin TEXT NOT NULL,
    target_kind TEXT NOT NULL,
    target_id TEXT NOT NULL,
    listing_version_id TEXT NOT NULL DEFAULT '',
    fingerprint TEXT NOT NULL,
    input_filename TEXT NOT NULL DEFAULT '',
    input_copy_path TEXT NOT NULL DEFAULT '',
    row_count INTEGER NOT NULL,
    rows_json TEXT NOT NULL,
    row_numbers_json TEXT NOT NULL DEFAULT '[]',
    callback_url TEXT NOT NULL DEFAULT '',
    task_fee_t INTEGER NOT NULL DEFAULT 0,
    estimated_cost_t INTEGER NOT NULL DEFAULT 0,
    retry_of_run_id TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL,
    run_id TEXT NOT NULL DEFAULT '',
    answer_json TEXT NOT NULL DEFAULT '',
    error TEXT NOT NULL DEFAULT '',
    attempts INTEGER NOT NULL DEFAULT 0,
    created_at_ms INTEGER NOT NULL,
    updated_at_ms INTEGER NOT NULL
  );
  CREATE INDEX submissions_pending ON submissions (origin, fingerprint, state);
  CREATE INDEX submissions_run ON submissions (origin, run_id);
  CREATE TABLE runs_seen (
    origin TEXT NOT NULL,
    run_id TEXT NOT NULL,
    status TEXT NOT NULL,
    summary_json TEXT NOT NULL,
    seen_at_ms INTEGER NOT NULL,
    PRIMARY KEY (origin, run_id)
  );
  CREATE TABLE downloads (
    origin TEXT NOT NULL,
    run_id TEXT NOT NULL,
    artifact_id TEXT NOT NULL,
    path TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    sha256 TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL,
    error TEXT NOT NULL DEFAULT '',
    updated_at_ms INTEGER NOT NULL,
    PRIMARY KEY (origin, run_id, artifact_id)
  );
  `,
  // 3: the ETag a partial download was started with, so that it resumes only on the same file
  `
  ALTER TABLE downloads ADD COLUMN etag TEXT NOT NULL DEFAULT '';
  `,
  // 4: where a submission's workbook was, its SHA-256 and its number of rows when sent, so the
  // rest of a pilot can be read from the same, unchanged workbook; and the run a batch (a pilot
  // and its rest) began with
  `
  ALTER TABLE submissions ADD COLUMN input_path TEXT NOT NULL DEFAULT '';
  ALTER TABLE submissions ADD COLUMN input_sha256 TEXT NOT NULL DEFAULT '';
  ALTER TABLE submissions ADD COLUMN batch_of_run_id TEXT NOT NULL DEFAULT '';
  ALTER TABLE submissions ADD COLUMN workbook_rows INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX submissions_batch ON submissions (origin, batch_of_run_id);
  `,
  // 5: column mappings the user confirmed, per template and per set of the sheet's headers
  `
  CREATE TABLE IF NOT EXISTS column_mappings (
    origin TEXT NOT NULL,
    target TEXT NOT NULL,
    headers_key TEXT NOT NULL,
    mapping_json TEXT NOT NULL,
    saved_at_ms INTEGER NOT NULL,
    PRIMARY KEY (origin, target, headers_key)
  );
  `,
  // 6: the run whose set-aside rows a submission sends once fixed (its follow-up), so the history
  // tells a follow-up from a retry of failed rows and shows the two runs together
  `
  ALTER TABLE submissions ADD COLUMN follow_up_of_run_id TEXT NOT NULL DEFAULT '';
  `,
  // 7: which version of a re-sent row the user chose to keep (the run that made it), per row of
  // the run it was first sent in; a row without a choice keeps its newest version that succeeded
  `
  CREATE TABLE IF NOT EXISTS kept_versions (
    origin TEXT NOT NULL,
    run_id TEXT NOT NULL,
    row_index INTEGER NOT NULL,
    kept_run_id TEXT NOT NULL,
    chosen_at_ms INTEGER NOT NULL,
    PRIMARY KEY (origin, run_id, row_index)
  );
  `,
  // 8: the New run screen's draft per environment (the choices, and the workbook with what it
  // was when kept, so a changed or missing file is noticed when the draft is restored)
  `
  CREATE TABLE IF NOT EXISTS prepare_drafts (
    environment TEXT PRIMARY KEY COLLATE NOCASE,
    choices_json TEXT NOT NULL,
    workbook_name TEXT NOT NULL DEFAULT '',
    workbook_path TEXT NOT NULL DEFAULT '',
    workbook_is_copy INTEGER NOT NULL DEFAULT 0,
    workbook_sha256 TEXT NOT NULL DEFAULT '',
    workbook_size INTEGER NOT NULL DEFAULT 0,
    workbook_mtime_ms INTEGER NOT NULL DEFAULT 0,
    saved_at_ms INTEGER NOT NULL
  );
  `,
  // 9: batches: a buyer's sheet sent to one target (its SHA-256, sheet and confirmed mapping)
  // across every run made from it. Each submission names its batch and how it was sent; rows
  // set aside have their problems here; each run's per-row outcome, once seen, is one letter a
  // row. Earlier submissions join batches built from the links the journal already had (a
  // pilot's rest, a retry or redo, a follow-up), however many links deep.
  `
  CREATE TABLE IF NOT EXISTS batches (
    id TEXT PRIMARY KEY,
    origin TEXT NOT NULL,
    target_kind TEXT NOT NULL,
    target_id TEXT NOT NULL,
    workbook_sha256 TEXT NOT NULL DEFAULT '',
    sheet TEXT NOT NULL DEFAULT '',
    mapping_json TEXT NOT NULL DEFAULT '',
    input_filename TEXT NOT NULL DEFAULT '',
    sheet_rows_json TEXT NOT NULL DEFAULT '',
    created_at_ms INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS batches_sheet ON batches (origin, target_kind, target_id, workbook_sha256);
  CREATE TABLE IF NOT EXISTS batch_set_aside (
    batch_id TEXT NOT NULL,
    sheet_row INTEGER NOT NULL,
    problems_json TEXT NOT NULL,
    PRIMARY KEY (batch_id, sheet_row)
  );
  CREATE TABLE IF NOT EXISTS run_outcomes (
    origin TEXT NOT NULL,
    run_id TEXT NOT NULL,
    outcomes TEXT NOT NULL,
    errors_json TEXT NOT NULL DEFAULT '',
    previews_json TEXT NOT NULL DEFAULT '',
    ended INTEGER NOT NULL DEFAULT 0,
    seen_at_ms INTEGER NOT NULL,
    PRIMARY KEY (origin, run_id)
  );
  ALTER TABLE submissions ADD COLUMN batch_id TEXT NOT NULL DEFAULT '';
  ALTER TABLE submissions ADD COLUMN send_kind TEXT NOT NULL DEFAULT '';
  CREATE INDEX IF NOT EXISTS submissions_batch_id ON submissions (batch_id);
  UPDATE submissions SET send_kind = CASE
    WHEN follow_up_of_run_id <> '' THEN 'follow-up'
    WHEN retry_of_run_id <> '' THEN 'retry'
    WHEN batch_of_run_id <> '' THEN 'rest'
    WHEN workbook_rows > row_count THEN 'pilot'
    ELSE 'all' END;
  WITH RECURSIVE chain(id, root) AS (
    SELECT id, id FROM submissions
      WHERE follow_up_of_run_id = '' AND retry_of_run_id = '' AND batch_of_run_id = ''
    UNION
    SELECT c.id, chain.root FROM submissions c
      JOIN submissions p ON p.origin = c.origin AND p.run_id <> '' AND p.run_id =
        COALESCE(NULLIF(c.follow_up_of_run_id, ''), NULLIF(c.retry_of_run_id, ''), c.batch_of_run_id)
      JOIN chain ON chain.id = p.id
  )
  UPDATE submissions SET batch_id = 'journal-' || COALESCE(
    (SELECT MIN(root) FROM chain WHERE chain.id = submissions.id), submissions.id);
  INSERT OR IGNORE INTO batches (id, origin, target_kind, target_id, workbook_sha256, input_filename, created_at_ms)
    SELECT batch_id, origin, target_kind, target_id, input_sha256, input_filename, created_at_ms
    FROM submissions WHERE batch_id = 'journal-' || id;
  `,
  // 10: usage: the service's runs as last read, one list per environment (so the Usage screen
  // opens at once and offline), and the monthly spending limit per environment
  `
  CREATE TABLE IF NOT EXISTS usage_runs (
    origin TEXT PRIMARY KEY,
    runs_json TEXT NOT NULL,
    read_at_ms INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS usage_limits (
    environment TEXT PRIMARY KEY COLLATE NOCASE,
    monthly_limit_t INTEGER NOT NULL
  );
  `,
  // 11: a run's rows and outputs as last read from its detail (tables/run-rows.ts), so a run of
  // 100,000 rows is read a window at a time instead of held whole
  `
  CREATE TABLE IF NOT EXISTS run_tasks (
    origin TEXT NOT NULL,
    run_id TEXT NOT NULL,
    task_id TEXT NOT NULL,
    source_row_index INTEGER NOT NULL,
    status TEXT NOT NULL,
    artifact_count INTEGER NOT NULL DEFAULT 0,
    error_message TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (origin, run_id, task_id)
  );
  CREATE INDEX IF NOT EXISTS run_tasks_rows ON run_tasks (origin, run_id, source_row_index);
  CREATE INDEX IF NOT EXISTS run_tasks_status ON run_tasks (origin, run_id, status, source_row_index);
  CREATE TABLE IF NOT EXISTS run_outputs (
    origin TEXT NOT NULL,
    run_id TEXT NOT NULL,
    artifact_id TEXT NOT NULL,
    task_id TEXT NOT NULL DEFAULT '',
    step_id TEXT NOT NULL DEFAULT '',
    port_name TEXT NOT NULL DEFAULT '',
    source_row_index INTEGER NOT NULL,
    mime_type TEXT NOT NULL DEFAULT '',
    access_url TEXT NOT NULL DEFAULT '',
    inline_text TEXT NOT NULL DEFAULT '',
    created_at_unix INTEGER NOT NULL DEFAULT 0,
    seq INTEGER NOT NULL,
    PRIMARY KEY (origin, run_id, artifact_id)
  );
  CREATE INDEX IF NOT EXISTS run_outputs_order ON run_outputs (origin, run_id, seq);
  `,
  // 12: a submission's rows one line each, in the JSON text they are sent as, so a part of
  // 10,000 rows is written and sent a few rows at a time; rows_sha256 is the hash of those texts
  // (in order, a comma between), '' for an entry that keeps its rows in rows_json
  `
  CREATE TABLE IF NOT EXISTS submission_rows (
    submission_id INTEGER NOT NULL,
    row_index INTEGER NOT NULL,
    row_json TEXT NOT NULL,
    PRIMARY KEY (submission_id, row_index)
  );
  ALTER TABLE submissions ADD COLUMN rows_sha256 TEXT NOT NULL DEFAULT '';
  `,
  // 13: a run's outputs by row and port, without their texts: the results workbook's ports and
  // last row were a scan of every output's text (a part of 10,000 inline outputs is 20 MB)
  `
  CREATE INDEX IF NOT EXISTS run_outputs_rows
    ON run_outputs (origin, run_id, source_row_index, port_name, seq);
  `,
]

export const SCHEMA_VERSION = MIGRATIONS.length

export class HistoryVersionError extends UserFacingError {
  readonly category = 'conflict' as const
  constructor(found: number) {
    super(
      `The history on this computer was written by a newer Skill Runner (schema ${found}, this one knows ${SCHEMA_VERSION}).`,
      'Use the newer Skill Runner, or choose another data folder for this one.',
      { action: 'choose-data-folder' },
    )
    this.name = 'HistoryVersionError'
  }
}

/** Opens (creating if needed) and migrates the history database at `path` (':memory:' works). */
export function openDb(path: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const db = reusingStatements(new (loadLibsql())(path))
  db.exec('PRAGMA busy_timeout = 5000')
  if (path !== ':memory:') db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA foreign_keys = ON')
  migrate(db)
  return db
}

/** Statements kept for reuse per database: past this many, the least recently used goes. */
const KEPT_STATEMENTS = 200

/**
 * The database with each statement compiled once and reused. libsql keeps a compiled statement
 * in native memory that the garbage collector does not see: 20,000 statements compiled one per
 * call (a run's downloads do a look-up and a write per file) grew a process by about 80 MB, with
 * collections between them. A statement is reset after each use, so reusing one reads what other
 * processes wrote since (a WAL file shared with the command line). The modes a statement can
 * be put in (raw, pluck) are not used here, so a kept one never carries one to the next caller.
 */
function reusingStatements(db: Db): Db {
  const compile = db.prepare.bind(db)
  const kept = new Map<string, ReturnType<Db['prepare']>>()
  const prepare = (sql: string) => {
    let statement = kept.get(sql)
    if (statement) kept.delete(sql)
    else statement = compile(sql)
    // Set again so the map's order is the order of last use.
    kept.set(sql, statement)
    if (kept.size > KEPT_STATEMENTS) kept.delete(kept.keys().next().value!)
    return statement
  }
  return Object.assign(db, { prepare })
}

function migrate(db: Db) {
  const current = userVersion(db)
  if (current > SCHEMA_VERSION) throw new HistoryVersionError(current)
  for (let version = current; version < SCHEMA_VERSION; version += 1) {
    // BEGIN IMMEDIATE: two processes opening an old file at once migrate it one after the other.
    db.exec('BEGIN IMMEDIATE')
    try {
      if (userVersion(db) === version) {
        db.exec(MIGRATIONS[version]!)
        db.exec(`PRAGMA user_version = ${version + 1}`)
      }
      db.exec('COMMIT')
    } catch (error) {
      db.exec('ROLLBACK')
      throw error
    }
  }
}

const userVersionRow = columns({ user_version: 'number' })

function userVersion(db: Db): number {
  return readOptionalRow(userVersionRow, db.prepare('PRAGMA user_version').get())?.user_version ?? 0
}

/** Runs `work` in one write transaction. */
export function transaction<T>(db: Db, work: () => T): T {
  db.exec('BEGIN IMMEDIATE')
  try {
    const result = work()
    db.exec('COMMIT')
    return result
  } catch (error) {
    db.exec('ROLLBACK')
    throw error
  }
}
