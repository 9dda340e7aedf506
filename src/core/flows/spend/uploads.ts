/**
 * Input asset uploads. A file is hashed (SHA-256) first; a file already uploaded to the same
 * environment is not sent again. Otherwise it is read as a stream and base64-encoded as it goes
 * into the JSON body, so a large file is never held whole in memory. A few files go at a time,
 * with progress per file and overall.
 */
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { basename } from 'node:path'
import type { InputAsset } from '../../../shared/contract'
import { base64JsonBody } from '../../service'
import type { Connection } from '../../environments/connection'
import { EngineError } from '../../errors'
import type { Db } from '../../storage/db'
import { mimeTypeOf } from '../../files/mime'

export interface UploadProgress {
  path: string
  filename: string
  state: 'hashing' | 'uploading' | 'done' | 'reused' | 'failed'
  sentBytes: number
  totalBytes: number
  /** Every file of this batch together. */
  overall: { sentBytes: number; totalBytes: number; doneFiles: number; totalFiles: number }
}

export interface UploadOptions {
  concurrency?: number
  signal?: AbortSignal
  onProgress?: (progress: UploadProgress) => void
}

export interface UploadResult {
  asset: InputAsset
  /** True when the same content was uploaded before and its asset was reused. */
  reused: boolean
}

const READ_CHUNK = 256 * 1024

/** Uploads each distinct path once (in parallel, a few at a time); returns path -> result. */
async function uploadFiles(
  db: Db,
  connection: Connection,
  paths: string[],
  options: UploadOptions = {},
): Promise<Map<string, UploadResult>> {
  const unique = [...new Set(paths)]
  const sizes = new Map<string, number>()
  for (const path of unique) sizes.set(path, await fileSize(path))
  const overall = {
    sentBytes: 0,
    totalBytes: [...sizes.values()].reduce((a, b) => a + b, 0),
    doneFiles: 0,
    totalFiles: unique.length,
  }
  const sentPerFile = new Map<string, number>()
  const results = new Map<string, UploadResult>()
  const queue = [...unique]
  const worker = async () => {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      const totalBytes = sizes.get(path)!
      const report = (state: UploadProgress['state'], sentBytes: number) => {
        overall.sentBytes += sentBytes - (sentPerFile.get(path!) ?? 0)
        sentPerFile.set(path!, sentBytes)
        options.onProgress?.({
          path: path!,
          filename: basename(path!),
          state,
          sentBytes,
          totalBytes,
          overall: { ...overall },
        })
      }
      const result = await uploadOne(db, connection, path, totalBytes, report, options.signal)
      overall.doneFiles += 1
      report(result.reused ? 'reused' : 'done', totalBytes)
      results.set(path, result)
    }
  }
  const workers = Array.from(
    { length: Math.max(1, Math.min(options.concurrency ?? 3, unique.length)) },
    worker,
  )
  await Promise.all(workers)
  return results
}

/** Input asset uploads, deduplicated per environment by content (the `uploads` table). */
export class Uploads {
  constructor(private readonly db: Db) {}

  /** Uploads each distinct path once (a few at a time); returns path -> result. */
  files(
    connection: Connection,
    paths: string[],
    options: UploadOptions = {},
  ): Promise<Map<string, UploadResult>> {
    return uploadFiles(this.db, connection, paths, options)
  }

  /** Uploads one file (or reuses its earlier upload). */
  async file(
    connection: Connection,
    path: string,
    options: UploadOptions = {},
  ): Promise<UploadResult> {
    return (await uploadFiles(this.db, connection, [path], options)).get(path)!
  }
}

async function uploadOne(
  db: Db,
  connection: Connection,
  path: string,
  size: number,
  report: (state: UploadProgress['state'], sentBytes: number) => void,
  signal: AbortSignal | undefined,
): Promise<UploadResult> {
  report('hashing', 0)
  const sha256 = await hashFile(path, signal)
  const known = db
    .prepare(
      'SELECT input_asset_id, filename, mime_type, size_bytes, uploaded_at_ms FROM uploads WHERE origin = ? AND sha256 = ?',
    )
    .get(connection.historyKey, sha256) as
    | {
        input_asset_id: string
        filename: string
        mime_type: string
        size_bytes: number
        uploaded_at_ms: number
      }
    | undefined
  if (known) {
    return {
      reused: true,
      asset: {
        inputAssetId: known.input_asset_id,
        filename: known.filename,
        mimeType: known.mime_type,
        sizeBytes: known.size_bytes,
        uploadedAt: Math.floor(known.uploaded_at_ms / 1000),
      },
    }
  }
  const filename = basename(path)
  const contentType = mimeTypeOf(path)
  report('uploading', 0)
  let asset: InputAsset
  try {
    asset = await connection.client.upload(
      {
        filename,
        contentType,
        content: base64JsonBody({ contentType, filename }, 'content', async function* () {
          let sent = 0
          for await (const chunk of createReadStream(path, { highWaterMark: READ_CHUNK })) {
            const bytes = chunk as Buffer
            sent += bytes.length
            report('uploading', sent)
            yield bytes
          }
        }),
      },
      { retry: true, signal, timeoutMs: Math.max(60_000, Math.ceil(size / 50)) },
    )
  } catch (error) {
    report('failed', 0)
    throw error
  }
  db.prepare(
    `INSERT INTO uploads (origin, sha256, input_asset_id, filename, mime_type, size_bytes, uploaded_at_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(origin, sha256) DO NOTHING`,
  ).run(
    connection.historyKey,
    sha256,
    asset.inputAssetId,
    asset.filename || filename,
    asset.mimeType || contentType,
    asset.sizeBytes || size,
    Date.now(),
  )
  return { asset, reused: false }
}

async function fileSize(path: string): Promise<number> {
  try {
    const info = await stat(path)
    if (!info.isFile()) throw new Error('not a file')
    return info.size
  } catch {
    throw new EngineError(
      'not-found',
      `The file “${path}” cannot be read.`,
      'Check that it exists and that you may open it.',
    )
  }
}

export async function hashFile(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path, {
    highWaterMark: READ_CHUNK,
    ...(signal ? { signal } : {}),
  })) {
    hash.update(chunk as Buffer)
  }
  return hash.digest('hex')
}
