/**
 * The `prepare_drafts` table: the New run screen's draft, one per environment: the choices as
 * JSON, and the workbook it was checked with (where it is, and its SHA-256, size and time of last
 * change when kept, so a file changed or gone since is noticed).
 */
import * as z from 'zod'
import type { Db } from '../db'
import { readOptionalRow } from '../read-row'

/** A draft's workbook as kept: `isCopy` when it is the engine's copy of what a page sent. */
export interface DraftWorkbookRecord {
  name: string
  path: string
  isCopy: boolean
  sha256: string
  sizeBytes: number
  mtimeMs: number
}

export interface DraftRecord {
  environment: string
  choicesJson: string
  workbook: DraftWorkbookRecord | null
  savedAtMs: number
}

const draftRow = z.object({
  environment: z.string(),
  choices_json: z.string(),
  workbook_name: z.string(),
  workbook_path: z.string(),
  workbook_is_copy: z.number(),
  workbook_sha256: z.string(),
  workbook_size: z.number(),
  workbook_mtime_ms: z.number(),
  saved_at_ms: z.number(),
})

export class PrepareDraftsTable {
  constructor(private readonly db: Db) {}

  get(environment: string): DraftRecord | null {
    const row = readOptionalRow(
      draftRow,
      this.db.prepare('SELECT * FROM prepare_drafts WHERE environment = ?').get(environment),
    )
    if (!row) return null
    return {
      environment: row.environment,
      choicesJson: row.choices_json,
      workbook: row.workbook_path
        ? {
            name: row.workbook_name,
            path: row.workbook_path,
            isCopy: row.workbook_is_copy === 1,
            sha256: row.workbook_sha256,
            sizeBytes: row.workbook_size,
            mtimeMs: row.workbook_mtime_ms,
          }
        : null,
      savedAtMs: row.saved_at_ms,
    }
  }

  /** Saves (or replaces) an environment's draft. */
  put(record: DraftRecord) {
    const w = record.workbook
    this.db
      .prepare(
        `INSERT INTO prepare_drafts (environment, choices_json, workbook_name, workbook_path, workbook_is_copy,
           workbook_sha256, workbook_size, workbook_mtime_ms, saved_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(environment) DO UPDATE SET choices_json = excluded.choices_json,
           workbook_name = excluded.workbook_name, workbook_path = excluded.workbook_path,
           workbook_is_copy = excluded.workbook_is_copy, workbook_sha256 = excluded.workbook_sha256,
           workbook_size = excluded.workbook_size, workbook_mtime_ms = excluded.workbook_mtime_ms,
           saved_at_ms = excluded.saved_at_ms`,
      )
      .run(
        record.environment,
        record.choicesJson,
        w?.name ?? '',
        w?.path ?? '',
        w?.isCopy ? 1 : 0,
        w?.sha256 ?? '',
        w?.sizeBytes ?? 0,
        Math.round(w?.mtimeMs ?? 0),
        record.savedAtMs,
      )
  }

  delete(environment: string) {
    this.db.prepare('DELETE FROM prepare_drafts WHERE environment = ?').run(environment)
  }
}
