/**
 * Downloads every artifact of a run to disk: one folder per run, one sub-folder per row.
 *
 * - `inlineText` is written as a file with the extension of its MIME type; other artifacts are
 *   fetched from `accessUrl` through the API client, which sends the token only to the
 *   environment's own origin and never across a redirect to another one.
 * - File names are made safe everywhere (no separators, `..`, reserved Windows names, control
 *   characters or over-long names), and every path is checked to stay inside the chosen folder.
 * - Bytes go to a hidden `.partial` file that is renamed when complete. An interrupted download
 *   resumes with `Range` + `If-Range` (or restarts when the server sends the whole file), a cut
 *   connection is retried a few times, and a finished file is skipped.
 * - Every artifact's state is kept in the history database, so a second run of the same command
 *   picks up where the first stopped, with the same file names.
 */
import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs'
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import type { Artifact, RunDetail } from '../../../shared/contract'
import { rowFolderName, type RowNumbering } from '../../../shared/format'
import { ApiError, DEFAULT_RETRY_POLICY, retryDelay, type Failure, type RetryPolicy } from '../../service'
import type { Connection } from '../../environments/connection'
import { EngineError } from '../../errors'
import type { Db } from '../../storage/db'
import { extensionOf } from '../../files/mime'

export interface DownloadedFile {
  artifactId: string
  /** Absolute path of the finished file. */
  path: string
  bytes: number
  /** Already on disk from an earlier download; nothing was fetched. */
  skipped: boolean
  /** The byte offset a cut download was resumed from (0 when it was fetched in one go). */
  resumedFrom: number
}

export interface FailedDownload {
  artifactId: string
  error: string
  nextStep: string
}

export interface DownloadProgress {
  artifactId: string
  path: string
  receivedBytes: number
  /** null when the server did not say. */
  totalBytes: number | null
  overall: { doneFiles: number; totalFiles: number; receivedBytes: number }
}

export interface DownloadOptions {
  signal?: AbortSignal
  /** Downloads at once (default 4). */
  concurrency?: number
  /** Attempts per artifact when the connection breaks (default 3). */
  attempts?: number
  onProgress?: (progress: DownloadProgress) => void
  /** How the run's rows are named (folders `row-006`); by position when not given. */
  rowNumbering?: RowNumbering | null | undefined
}

export interface RunDownload {
  runId: string
  /** The run's own folder inside the chosen one. */
  folder: string
  files: DownloadedFile[]
  failed: FailedDownload[]
}

/** Above this size a download is recorded before its bytes come (see downloadArtifact). */
const LARGE_FILE_BYTES = 1024 * 1024
/** Up to this size a download is read whole and written in one go. */
const SMALL_FILE_BYTES = 256 * 1024

const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i
const MAX_NAME_BYTES = 150

/** A file or folder name that is safe to create on Windows, macOS and Linux. */
export function safeFileName(name: string, fallback = 'file'): string {
  let out = name
    .normalize('NFC')
    // Path separators and characters Windows forbids.
    .replace(/[/\\:*?"<>|]/g, '_')
    // Control characters (C0, DEL, C1) and bidi overrides that disguise extensions.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim()
    // Windows drops trailing dots and spaces; a leading dot hides the file (and `..` climbs).
    .replace(/[. ]+$/, '')
    .replace(/^\.+/, '')
  if (!out) out = fallback
  if (RESERVED.test(out)) out = `_${out}`
  if (Buffer.byteLength(out) > MAX_NAME_BYTES) {
    const dot = out.lastIndexOf('.')
    const ext = dot > 0 && out.length - dot <= 12 ? out.slice(dot) : ''
    let stem = out.slice(0, out.length - ext.length)
    while (Buffer.byteLength(stem + ext) > MAX_NAME_BYTES) stem = [...stem].slice(0, -1).join('')
    out = stem + ext
  }
  return out
}

/** `child` joined under `root`, refusing anything that would land outside it. */
export function insideFolder(root: string, ...parts: string[]): string {
  const base = resolve(root)
  const path = resolve(base, ...parts)
  const rel = relative(base, path)
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw new EngineError(
      'internal',
      `Refused to write “${parts.join('/')}” because it would land outside ${base}.`,
      'This is a bug in how the file was named; please report it.',
    )
  }
  return path
}

function isInside(folder: string, path: string): boolean {
  const rel = relative(resolve(folder), resolve(path))
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)
}

/**
 * Makes a folder and its missing parents one level at a time, with a clear message when that
 * cannot be done. (Node's recursive mkdir can spin forever on some file systems, e.g. /proc.)
 */
export async function ensureFolder(folder: string): Promise<void> {
  const missing: string[] = []
  let at = resolve(folder)
  for (;;) {
    const info = await stat(at).catch(() => null)
    if (info) {
      if (!info.isDirectory())
        throw new EngineError(
          'bad-input',
          `“${at}” is a file, not a folder.`,
          'Choose a folder to save into.',
        )
      break
    }
    missing.unshift(at)
    const parent = dirname(at)
    if (parent === at) break
    at = parent
  }
  for (const path of missing) {
    try {
      await mkdir(path)
    } catch (error) {
      if ((error as { code?: string }).code === 'EEXIST') continue
      throw new EngineError(
        'bad-input',
        `The folder “${path}” cannot be created (${(error as { code?: string }).code ?? String(error)}).`,
        'Choose a folder you may write to.',
      )
    }
  }
}

/** The file name a Content-Disposition header suggests (RFC 6266 `filename*` first). */
export function dispositionName(header: string | null): string | null {
  if (!header) return null
  const star = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header)
  if (star) {
    try {
      return decodeURIComponent(star[2]!.trim().replace(/^"|"$/g, ''))
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i.exec(header)
  if (!plain) return null
  return (plain[2] ?? plain[1]!).replace(/\\(.)/g, '$1').trim()
}

interface DownloadRow {
  path: string
  bytes: number
  sha256: string
  state: 'partial' | 'done' | 'failed'
  etag: string
}

class DownloadLedger {
  constructor(
    private readonly db: Db,
    private readonly origin: string,
    private readonly runId: string,
  ) {}

  get(artifactId: string): DownloadRow | undefined {
    return this.db
      .prepare(
        'SELECT path, bytes, sha256, state, etag FROM downloads WHERE origin = ? AND run_id = ? AND artifact_id = ?',
      )
      .get(this.origin, this.runId, artifactId) as DownloadRow | undefined
  }

  paths(folder: string): Set<string> {
    const rows = this.db
      .prepare('SELECT path FROM downloads WHERE origin = ? AND run_id = ?')
      .all(this.origin, this.runId) as { path: string }[]
    return new Set(rows.map((r) => r.path).filter((p) => isInside(folder, p)))
  }

  private readonly pending: [string, Partial<DownloadRow>][] = []
  private lastFlush = Date.now()

  /**
   * Records a finished file. Written in batches (one transaction, one disk sync) so a thousand
   * small files do not cost a thousand syncs; flush() writes the rest. A batch lost in a crash
   * only means those files are fetched again, under the same names.
   */
  done(artifactId: string, row: Partial<DownloadRow>) {
    this.pending.push([artifactId, { ...row, state: 'done' }])
    if (this.pending.length >= 100 || Date.now() - this.lastFlush > 500) this.flush()
  }

  flush() {
    this.lastFlush = Date.now()
    if (this.pending.length === 0) return
    const batch = this.pending.splice(0)
    this.db.exec('BEGIN IMMEDIATE')
    try {
      for (const [id, row] of batch) this.put(id, row)
      this.db.exec('COMMIT')
    } catch (error) {
      this.db.exec('ROLLBACK')
      throw error
    }
  }

  put(artifactId: string, row: Partial<DownloadRow> & { error?: string }) {
    const now = Date.now()
    const current = this.get(artifactId)
    const next = {
      path: row.path ?? current?.path ?? '',
      bytes: row.bytes ?? current?.bytes ?? 0,
      sha256: row.sha256 ?? current?.sha256 ?? '',
      state: row.state ?? current?.state ?? 'partial',
      etag: row.etag ?? current?.etag ?? '',
      error: row.error ?? '',
    }
    this.db
      .prepare(
        `INSERT INTO downloads (origin, run_id, artifact_id, path, bytes, sha256, state, error, etag, updated_at_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(origin, run_id, artifact_id) DO UPDATE SET path = excluded.path, bytes = excluded.bytes,
           sha256 = excluded.sha256, state = excluded.state, error = excluded.error, etag = excluded.etag,
           updated_at_ms = excluded.updated_at_ms`,
      )
      .run(
        this.origin,
        this.runId,
        artifactId,
        next.path,
        next.bytes,
        next.sha256,
        next.state,
        next.error,
        next.etag,
        now,
      )
  }
}

/** Finished downloads of a run: artifact id -> absolute path (for the results workbook). */
function downloadedFiles(db: Db, origin: string, runId: string): Map<string, string> {
  const rows = db
    .prepare(
      "SELECT artifact_id, path FROM downloads WHERE origin = ? AND run_id = ? AND state = 'done'",
    )
    .all(origin, runId) as { artifact_id: string; path: string }[]
  return new Map(rows.map((r) => [r.artifact_id, r.path]))
}

/** The run's folder: its id, marked as a run when the id does not say so already. */
export function runFolderName(runId: string): string {
  return safeFileName(/^run[_-]/i.test(runId) ? runId : `run-${runId}`, 'run')
}

/**
 * A name in `folder` no other artifact of this run has. The run's folder belongs to the app: a
 * file there that no artifact claims is an earlier, unrecorded copy, and is replaced.
 */
function freeName(folder: string, wanted: string, taken: Set<string>): string {
  const dot = wanted.lastIndexOf('.')
  const stem = dot > 0 ? wanted.slice(0, dot) : wanted
  const ext = dot > 0 ? wanted.slice(dot) : ''
  for (let n = 1; ; n += 1) {
    const path = insideFolder(folder, n === 1 ? wanted : `${stem} (${n})${ext}`)
    if (!taken.has(path)) {
      taken.add(path)
      return path
    }
  }
}

async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size
  } catch {
    return null
  }
}

/** The connection ended before the whole file came. */
class DownloadCut extends Error {
  override name = 'DownloadCut'
}

function describeFailure(error: unknown): { error: string; nextStep: string } {
  if (error instanceof DownloadCut)
    return {
      error: error.message,
      nextStep: 'Run the download again; it resumes where it stopped.',
    }
  if (error instanceof ApiError) return { error: error.message, nextStep: error.nextStep }
  if (error instanceof EngineError) return { error: error.message, nextStep: error.nextStep }
  const code = (error as { code?: string }).code
  if (code === 'ENOSPC')
    return {
      error: 'The disk is full.',
      nextStep: 'Free some space (or choose another folder) and run the download again.',
    }
  if (code === 'EACCES' || code === 'EPERM')
    return {
      error: 'The folder cannot be written to.',
      nextStep: 'Choose a folder you may write to and run the download again.',
    }
  return {
    error: error instanceof Error ? error.message : String(error),
    nextStep: 'Run the download again; finished files are kept and cut ones resume.',
  }
}

/** Errors worth another attempt: the connection broke or the server was briefly unwell. */
/** Downloads back off from 200 ms (cut files resume, so retries are cheap). */
const DOWNLOAD_RETRY_POLICY: RetryPolicy = {
  ...DEFAULT_RETRY_POLICY,
  baseDelayMs: 200,
  maxDelayMs: 4000,
}

/** A failed download as the shared retry policy sees it. */
function failureOf(error: unknown): Failure {
  if (error instanceof ApiError) {
    if (error.kind === 'unreachable') return { kind: 'network' }
    if (error.kind === 'timeout') return { kind: 'timeout' }
    if (error.kind === 'http')
      return { kind: 'status', status: error.status, retryAfterMs: error.retryAfterMs }
    return { kind: 'other' }
  }
  if (error instanceof DownloadCut) return { kind: 'network' }
  const code = (error as { code?: string }).code
  // fetch says "terminated" (a TypeError) when a response body breaks off.
  return code === 'ECONNRESET' ||
    code === 'UND_ERR_SOCKET' ||
    (error as Error)?.name === 'TypeError'
    ? { kind: 'network' }
    : { kind: 'other' }
}

function closeStream(stream: WriteStream): Promise<void> {
  return new Promise((resolveClose, reject) => {
    stream.end((error?: Error | null) => (error ? reject(error) : resolveClose()))
  })
}

/** The run's detail as given, or read from the service when only its id is. */
export async function runDetailOf(
  connection: Connection,
  runOrDetail: string | RunDetail,
  signal?: AbortSignal,
): Promise<RunDetail> {
  return typeof runOrDetail === 'string'
    ? connection.client.run(runOrDetail, { signal })
    : runOrDetail
}

async function downloadRun(
  db: Db,
  connection: Connection,
  runOrDetail: string | RunDetail,
  outDir: string,
  options: DownloadOptions = {},
): Promise<RunDownload> {
  const detail = await runDetailOf(connection, runOrDetail, options.signal)
  const runId = detail.run.runId
  const ledger = new DownloadLedger(db, connection.historyKey, runId)
  const folder = insideFolder(outDir, runFolderName(runId))
  await ensureFolder(folder)
  const rowCount = Math.max(
    detail.run.totalTasks ?? 0,
    ...detail.tasks.map((t) => t.sourceRowIndex + 1),
    1,
  )
  const taken = ledger.paths(folder)
  const made = new Set<string>()
  /** Downloads under way: what to record if one is cut. */
  const inFlight = new Map<string, Partial<DownloadRow>>()
  const files: DownloadedFile[] = []
  const failed: FailedDownload[] = []
  const overall = { doneFiles: 0, totalFiles: detail.artifacts.length, receivedBytes: 0 }

  const one = async (artifact: Artifact) => {
    const attempts = options.attempts ?? 3
    for (let attempt = 1; ; attempt += 1) {
      try {
        const file = await downloadArtifact(artifact)
        files.push(file)
        return
      } catch (error) {
        options.signal?.throwIfAborted()
        // A cut file stays partial (with its ETag), so that the next attempt, now or in a later
        // download of the run, resumes it.
        const partial = inFlight.get(artifact.artifactId)
        if (partial?.etag) ledger.put(artifact.artifactId, partial)
        const delay = retryDelay(failureOf(error), attempt, {
          ...DOWNLOAD_RETRY_POLICY,
          maxAttempts: attempts,
        })
        if (delay !== null) {
          await new Promise((r) => setTimeout(r, delay))
          continue
        }
        const failure = describeFailure(error)
        if (!partial?.etag)
          ledger.put(artifact.artifactId, { state: 'failed', error: failure.error })
        failed.push({ artifactId: artifact.artifactId, ...failure })
        overall.doneFiles += 1
        report(artifact.artifactId, '', 0, null)
        return
      }
    }
  }

  const report = (artifactId: string, path: string, received: number, total: number | null) =>
    options.onProgress?.({ artifactId, path, receivedBytes: received, totalBytes: total, overall })

  const downloadArtifact = async (artifact: Artifact): Promise<DownloadedFile> => {
    const rowFolder = insideFolder(
      folder,
      rowFolderName(options.rowNumbering, artifact.sourceRowIndex, rowCount),
    )
    if (!made.has(rowFolder)) {
      await mkdir(rowFolder, { recursive: true })
      made.add(rowFolder)
    }
    const recorded = ledger.get(artifact.artifactId)
    // What was recorded counts only for this folder (the same run may be downloaded elsewhere).
    const known = recorded?.path && isInside(folder, recorded.path) ? recorded : undefined
    // Finished before, and still there with the same size: nothing to do.
    if (known?.state === 'done' && known.path && (await sizeOf(known.path)) === known.bytes) {
      overall.doneFiles += 1
      report(artifact.artifactId, known.path, known.bytes, known.bytes)
      return {
        artifactId: artifact.artifactId,
        path: known.path,
        bytes: known.bytes,
        skipped: true,
        resumedFrom: 0,
      }
    }
    const baseName = safeFileName(artifact.portName || 'output', 'output')
    if (artifact.inlineText || !artifact.accessUrl) {
      const path =
        known?.path ||
        freeName(rowFolder, baseName + extensionOf(artifact.mimeType || 'text/plain'), taken)
      const bytes = Buffer.from(artifact.inlineText, 'utf8')
      const temp = insideFolder(rowFolder, `.${safeFileName(artifact.artifactId)}.partial`)
      await writeFile(temp, bytes)
      await rename(temp, path)
      const sha256 = createHash('sha256').update(bytes).digest('hex')
      ledger.done(artifact.artifactId, { path, bytes: bytes.length, sha256 })
      overall.doneFiles += 1
      overall.receivedBytes += bytes.length
      report(artifact.artifactId, path, bytes.length, bytes.length)
      return {
        artifactId: artifact.artifactId,
        path,
        bytes: bytes.length,
        skipped: false,
        resumedFrom: 0,
      }
    }

    const temp = insideFolder(rowFolder, `.${safeFileName(artifact.artifactId)}.partial`)
    const have = known?.state === 'partial' && known.etag ? ((await sizeOf(temp)) ?? 0) : 0
    const headers: Record<string, string> = {}
    if (have > 0) {
      headers.Range = `bytes=${have}-`
      headers['If-Range'] = known!.etag
    }
    let response: Response
    try {
      response = await connection.client.fetchArtifact(artifact.accessUrl, {
        headers,
        signal: options.signal,
      })
    } catch (error) {
      // The file changed or shrank on the server: start over next time.
      if (error instanceof ApiError && error.status === 416) await rm(temp, { force: true })
      throw error
    }
    const resumed = response.status === 206 && have > 0 && contentRangeStart(response) === have
    if (response.status === 206 && !resumed) {
      await response.body?.cancel()
      await rm(temp, { force: true })
      throw new DownloadCut('The server answered with the wrong part of the file.')
    }
    const start = resumed ? have : 0
    const total = totalSize(response, start)
    const path =
      known?.path ||
      freeName(
        rowFolder,
        safeFileName(
          dispositionName(response.headers.get('content-disposition')) ??
            baseName + extensionOf(artifact.mimeType || response.headers.get('content-type') || ''),
          baseName,
        ),
        taken,
      )
    const etag = response.headers.get('etag') ?? ''
    const partial = { path, state: 'partial' as const, etag, bytes: total ?? 0 }
    // A large file is recorded before its bytes come, so that even a crash leaves it resumable;
    // a small one only if it is cut (below).
    if (etag && (total === null || total > LARGE_FILE_BYTES))
      ledger.put(artifact.artifactId, partial)
    inFlight.set(artifact.artifactId, partial)
    // The hash covers the part already on disk, then every chunk as it is written.
    const hash = createHash('sha256')
    if (resumed) for await (const chunk of createReadStream(temp)) hash.update(chunk as Buffer)
    let received = start
    if (!resumed && total !== null && total <= SMALL_FILE_BYTES) {
      // A small file is taken whole: fewer steps per file when a run has thousands.
      const bytes = Buffer.from(await response.arrayBuffer())
      hash.update(bytes)
      await writeFile(temp, bytes)
      received = bytes.length
      overall.receivedBytes += received
      report(artifact.artifactId, path, received, total)
    }
    const out = received === start ? createWriteStream(temp, { flags: resumed ? 'a' : 'w' }) : null
    try {
      if (out && response.body) {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          hash.update(chunk)
          if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()))
          received += chunk.length
          overall.receivedBytes += chunk.length
          report(artifact.artifactId, path, received, total)
        }
      }
    } finally {
      if (out) await closeStream(out)
    }
    if (total !== null && received !== total) {
      throw new DownloadCut(
        `The download of ${artifact.artifactId} stopped at ${received} of ${total} bytes.`,
      )
    }
    await rename(temp, path)
    inFlight.delete(artifact.artifactId)
    ledger.done(artifact.artifactId, { path, bytes: received, sha256: hash.digest('hex'), etag })
    overall.doneFiles += 1
    report(artifact.artifactId, path, received, total)
    return {
      artifactId: artifact.artifactId,
      path,
      bytes: received,
      skipped: false,
      resumedFrom: start,
    }
  }

  // A few at a time, in the server's order.
  const queue = [...detail.artifacts]
  const workers = Array.from({ length: Math.max(1, options.concurrency ?? 4) }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      options.signal?.throwIfAborted()
      await one(next)
    }
  })
  try {
    await Promise.all(workers)
  } finally {
    ledger.flush()
  }
  const order = new Map(detail.artifacts.map((a, i) => [a.artifactId, i]))
  files.sort((a, b) => order.get(a.artifactId)! - order.get(b.artifactId)!)
  failed.sort((a, b) => order.get(a.artifactId)! - order.get(b.artifactId)!)
  return { runId, folder, files, failed }
}

function contentRangeStart(response: Response): number | null {
  const match = /bytes (\d+)-\d+\/(\d+|\*)/.exec(response.headers.get('content-range') ?? '')
  return match ? Number(match[1]) : null
}

/** The whole file's size: from Content-Range on a 206, else Content-Length. */
function totalSize(response: Response, start: number): number | null {
  if (response.status === 206) {
    const match = /bytes \d+-\d+\/(\d+)/.exec(response.headers.get('content-range') ?? '')
    if (match) return Number(match[1])
  }
  const length = response.headers.get('content-length')
  return length !== null && /^\d+$/.test(length) ? Number(length) + start : null
}

/** Where `runs download` puts a run: DIR/<run id>. */
export function runFolderIn(outDir: string, runId: string): string {
  return join(resolve(outDir), runFolderName(runId))
}

/** A run's outputs saved to disk, resumable (the `downloads` table). */
export class Downloads {
  constructor(private readonly db: Db) {}

  /** Downloads every artifact of a run into `<outDir>/<run folder>/<row folder>/`. */
  run(
    connection: Connection,
    runOrDetail: string | RunDetail,
    outDir: string,
    options: DownloadOptions = {},
  ): Promise<RunDownload> {
    return downloadRun(this.db, connection, runOrDetail, outDir, options)
  }

  /** Finished downloads of a run: artifact id -> absolute path. */
  savedPaths(historyKey: string, runId: string): Map<string, string> {
    return downloadedFiles(this.db, historyKey, runId)
  }
}
