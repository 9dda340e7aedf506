/**
 * The sandbox's SQLite database (through libsql's synchronous API): the tables, and typed
 * helpers to read rows. Everything the sandbox knows lives here, so a restart with the same
 * file resumes unfinished runs.
 */
import { createRequire } from 'node:module'
import type Database from 'libsql'

/**
 * libsql's native module, loaded when a database is first opened rather than when the process
 * starts: most command-line answers (help, version, completion) never open one.
 */
function libsql(): typeof Database {
  return createRequire(import.meta.url)('libsql') as typeof Database
}

export type Db = Database.Database

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS users (
  user_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  token TEXT UNIQUE
);
CREATE TABLE IF NOT EXISTS official_templates (
  template_id TEXT PRIMARY KEY,
  skill TEXT NOT NULL,
  task_cost_t INTEGER NOT NULL,
  artifact_mode TEXT NOT NULL,
  schema_json TEXT NOT NULL,
  definition_hash TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS market_listings (
  listing_id TEXT PRIMARY KEY,
  owner_user_id INTEGER NOT NULL,
  skill TEXT NOT NULL,
  artifact_mode TEXT NOT NULL,
  listing_json TEXT NOT NULL,
  schema_json TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL,
  position INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS private_templates (
  template_id TEXT PRIMARY KEY,
  owner_user_id INTEGER NOT NULL,
  template_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS review_requests (
  request_id TEXT PRIMARY KEY,
  owner_user_id INTEGER NOT NULL,
  request_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS input_assets (
  asset_id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL,
  filename TEXT NOT NULL,
  mime_type TEXT NOT NULL,
  size_bytes INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  uploaded_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS runs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id TEXT NOT NULL UNIQUE,
  user_id INTEGER NOT NULL,
  status TEXT NOT NULL,
  source_type TEXT NOT NULL,
  skill TEXT NOT NULL,
  artifact_mode TEXT NOT NULL,
  schema_json TEXT NOT NULL,
  display_name TEXT NOT NULL,
  template_key TEXT NOT NULL,
  template_name TEXT NOT NULL,
  template_uuid TEXT NOT NULL,
  definition_hash TEXT NOT NULL,
  input_filename TEXT NOT NULL,
  total_tasks INTEGER NOT NULL,
  completed_tasks INTEGER NOT NULL DEFAULT 0,
  failed_tasks INTEGER NOT NULL DEFAULT 0,
  cancelled_tasks INTEGER NOT NULL DEFAULT 0,
  task_cost_t INTEGER NOT NULL,
  estimated_cost_t INTEGER NOT NULL,
  actual_cost_t INTEGER NOT NULL DEFAULT 0,
  first_error_message TEXT NOT NULL DEFAULT '',
  created_at_unix INTEGER NOT NULL,
  started_at_unix INTEGER NOT NULL DEFAULT 0,
  completed_at_unix INTEGER NOT NULL DEFAULT 0,
  updated_at_unix INTEGER NOT NULL,
  callback_url TEXT NOT NULL DEFAULT '',
  listing_id TEXT,
  listing_version_id TEXT,
  run_transaction_id TEXT,
  skill_name TEXT,
  transaction_status TEXT,
  pricing_rule_version TEXT,
  task_fixed_fee_t INTEGER,
  estimated_execution_cost_t INTEGER,
  actual_execution_cost_t INTEGER,
  estimated_buyer_payable_t INTEGER,
  final_buyer_payable_t INTEGER
);
CREATE INDEX IF NOT EXISTS runs_by_user ON runs (user_id, seq);
CREATE TABLE IF NOT EXISTS tasks (
  task_id TEXT PRIMARY KEY,
  run_id TEXT NOT NULL,
  row_index INTEGER NOT NULL,
  status TEXT NOT NULL,
  row_json TEXT NOT NULL,
  error_message TEXT NOT NULL DEFAULT '',
  artifact_count INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS tasks_by_run ON tasks (run_id, row_index);
CREATE INDEX IF NOT EXISTS tasks_by_status ON tasks (status);
CREATE INDEX IF NOT EXISTS tasks_by_run_status ON tasks (run_id, status, row_index);
CREATE TABLE IF NOT EXISTS artifacts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  artifact_id TEXT NOT NULL UNIQUE,
  run_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  user_id INTEGER NOT NULL,
  step_id TEXT NOT NULL,
  port_name TEXT NOT NULL,
  row_index INTEGER NOT NULL,
  mime_type TEXT NOT NULL,
  filename TEXT NOT NULL,
  inline_text TEXT,
  blob_key TEXT,
  size_bytes INTEGER NOT NULL,
  created_at_unix INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS artifacts_by_run ON artifacts (run_id, seq);
CREATE TABLE IF NOT EXISTS idempotency (
  user_id INTEGER NOT NULL,
  endpoint TEXT NOT NULL,
  client_request_id TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  status_code INTEGER NOT NULL,
  response_json TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL,
  PRIMARY KEY (user_id, endpoint, client_request_id)
);
`

export function openDatabase(path: string): Db {
  const db = new (libsql())(path)
  if (path !== ':memory:') {
    db.exec('PRAGMA journal_mode = WAL')
    db.exec('PRAGMA busy_timeout = 5000')
  }
  db.exec(SCHEMA)
  return db
}

/**
 * The prepared statement for `sql` on `db`, made once: a run's tasks each cost several queries,
 * and preparing them afresh took more of the sandbox's time than running them. The queries are
 * the sandbox's own texts, a few dozen; the cache is emptied if it ever grows past that.
 */
const statements = new WeakMap<Db, Map<string, Database.Statement>>()
function statement(db: Db, sql: string): Database.Statement {
  let cache = statements.get(db)
  if (!cache) statements.set(db, (cache = new Map()))
  let prepared = cache.get(sql)
  if (!prepared) {
    if (cache.size >= 200) cache.clear()
    prepared = db.prepare(sql)
    cache.set(sql, prepared)
  }
  return prepared
}

/** One row of a query, typed by the caller (the sandbox reads only its own tables). */
export function getRow<T>(db: Db, sql: string, ...params: unknown[]): T | undefined {
  return statement(db, sql).get(...params) as T | undefined
}

export function allRows<T>(db: Db, sql: string, ...params: unknown[]): T[] {
  return statement(db, sql).all(...params) as T[]
}

export function run(db: Db, sql: string, ...params: unknown[]): number {
  return statement(db, sql).run(...params).changes
}

export function count(db: Db, sql: string, ...params: unknown[]): number {
  const row = statement(db, sql).get(...params) as { n: number } | undefined
  return row?.n ?? 0
}

export function getMeta(db: Db, key: string): string | undefined {
  return getRow<{ value: string }>(db, 'SELECT value FROM meta WHERE key = ?', key)?.value
}

export function setMeta(db: Db, key: string, value: string): void {
  run(
    db,
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    key,
    value,
  )
}

// ---- row shapes -----------------------------------------------------------------------------

export interface UserRow {
  user_id: number
  name: string
  token: string | null
}

export interface OfficialTemplateRow {
  template_id: string
  skill: string
  task_cost_t: number
  artifact_mode: string
  schema_json: string
  definition_hash: string
}

export interface ListingRow {
  listing_id: string
  owner_user_id: number
  skill: string
  artifact_mode: string
  listing_json: string
  schema_json: string
  created_at_ms: number
  position: number
}

export interface AssetRow {
  asset_id: string
  user_id: number
  filename: string
  mime_type: string
  size_bytes: number
  sha256: string
  uploaded_at: number
}

export interface RunRow {
  seq: number
  run_id: string
  user_id: number
  status: string
  source_type: string
  skill: string
  artifact_mode: string
  schema_json: string
  display_name: string
  template_key: string
  template_name: string
  template_uuid: string
  definition_hash: string
  input_filename: string
  total_tasks: number
  completed_tasks: number
  failed_tasks: number
  cancelled_tasks: number
  task_cost_t: number
  estimated_cost_t: number
  actual_cost_t: number
  first_error_message: string
  created_at_unix: number
  started_at_unix: number
  completed_at_unix: number
  updated_at_unix: number
  callback_url: string
  listing_id: string | null
  listing_version_id: string | null
  run_transaction_id: string | null
  skill_name: string | null
  transaction_status: string | null
  pricing_rule_version: string | null
  task_fixed_fee_t: number | null
  estimated_execution_cost_t: number | null
  actual_execution_cost_t: number | null
  estimated_buyer_payable_t: number | null
  final_buyer_payable_t: number | null
}

export interface TaskRow {
  task_id: string
  run_id: string
  row_index: number
  status: string
  row_json: string
  error_message: string
  artifact_count: number
}

export interface ArtifactRow {
  seq: number
  artifact_id: string
  run_id: string
  task_id: string
  user_id: number
  step_id: string
  port_name: string
  row_index: number
  mime_type: string
  filename: string
  inline_text: string | null
  blob_key: string | null
  size_bytes: number
  created_at_unix: number
}
