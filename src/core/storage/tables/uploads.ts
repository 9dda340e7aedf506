/** The `uploads` table: input assets already uploaded, by environment and content hash. */
import * as z from 'zod'
import type { Db } from '../db'
import { selectRow } from '../read-row'

export interface UploadRecord {
  inputAssetId: string
  filename: string
  mimeType: string
  sizeBytes: number
  uploadedAtMs: number
}

const uploadRow = z.object({
  input_asset_id: z.string(),
  filename: z.string(),
  mime_type: z.string(),
  size_bytes: z.number(),
  uploaded_at_ms: z.number(),
})

export class UploadsTable {
  constructor(private readonly db: Db) {}

  /** The earlier upload of this content to this environment, or null. */
  find(historyKey: string, sha256: string): UploadRecord | null {
    const sql =
      'SELECT input_asset_id, filename, mime_type, size_bytes, uploaded_at_ms FROM uploads WHERE origin = ? AND sha256 = ?'
    const row = selectRow(this.db, uploadRow, sql, [historyKey, sha256])
    if (!row) return null
    return {
      inputAssetId: row.input_asset_id,
      filename: row.filename,
      mimeType: row.mime_type,
      sizeBytes: row.size_bytes,
      uploadedAtMs: row.uploaded_at_ms,
    }
  }

  /** Records an upload; the first record of a content hash is kept. */
  insertIfAbsent(historyKey: string, sha256: string, upload: UploadRecord) {
    this.db
      .prepare(
        `INSERT INTO uploads (origin, sha256, input_asset_id, filename, mime_type, size_bytes, uploaded_at_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(origin, sha256) DO NOTHING`,
      )
      .run(
        historyKey,
        sha256,
        upload.inputAssetId,
        upload.filename,
        upload.mimeType,
        upload.sizeBytes,
        upload.uploadedAtMs,
      )
  }
}
