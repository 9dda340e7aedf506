/**
 * Input asset uploads. A file is hashed (SHA-256) first; a file already uploaded to the same
 * environment is not sent again. Otherwise it is read as a stream and base64-encoded as it goes
 * into the JSON body, so a large file is never held whole in memory. A few files go at a time,
 * with progress per file and overall.
 */
import { sha256Hash } from '../../files/hashing'
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { basename } from 'node:path'
import type { UploadProgressUpdate } from '../../../shared/bridge'
import type { InputAsset } from '../../../shared/contract'
import { base64JsonBody } from '../../service'
import type { Connection } from '../../environments/connection'
import { EngineError } from '../../errors'
import type { Db } from '../../storage/db'
import { UploadsTable } from '../../storage/tables/uploads'
import { mimeTypeOf } from '../../files/mime'
import { defined } from '../../../shared/defined'

/**
 * One file's progress: the state and counts the Bridge's update carries (`overall` is every
 * file of this batch together), for a path on this computer.
 */
export type UploadProgress = Pick<
  UploadProgressUpdate,
  'state' | 'sentBytes' | 'totalBytes' | 'overall'
> & { path: string; filename: string }

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
  table: UploadsTable,
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
      const result = await uploadOne(table, connection, path, totalBytes, report, options.signal)
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
  private readonly table: UploadsTable

  constructor(db: Db) {
    this.table = new UploadsTable(db)
  }

  /** Uploads each distinct path once (a few at a time); returns path -> result. */
  files(
    connection: Connection,
    paths: string[],
    options: UploadOptions = {},
  ): Promise<Map<string, UploadResult>> {
    return uploadFiles(this.table, connection, paths, options)
  }

  /** Uploads one file (or reuses its earlier upload). */
  async file(
    connection: Connection,
    path: string,
    options: UploadOptions = {},
  ): Promise<UploadResult> {
    return (await uploadFiles(this.table, connection, [path], options)).get(path)!
  }
}

async function uploadOne(
  table: UploadsTable,
  connection: Connection,
  path: string,
  size: number,
  report: (state: UploadProgress['state'], sentBytes: number) => void,
  signal: AbortSignal | undefined,
): Promise<UploadResult> {
  report('hashing', 0)
  const sha256 = await hashFile(path, signal)
  const known = table.find(connection.historyKey, sha256)
  if (known) {
    return {
      reused: true,
      asset: {
        inputAssetId: known.inputAssetId,
        filename: known.filename,
        mimeType: known.mimeType,
        sizeBytes: known.sizeBytes,
        uploadedAt: Math.floor(known.uploadedAtMs / 1000),
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
  table.insertIfAbsent(connection.historyKey, sha256, {
    inputAssetId: asset.inputAssetId,
    filename: asset.filename || filename,
    mimeType: asset.mimeType || contentType,
    sizeBytes: asset.sizeBytes || size,
    uploadedAtMs: Date.now(),
  })
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
  const hash = sha256Hash()
  for await (const chunk of createReadStream(path, {
    highWaterMark: READ_CHUNK,
    ...defined({ signal }),
  })) {
    hash.update(chunk as Buffer)
  }
  return hash.digest('hex')
}
