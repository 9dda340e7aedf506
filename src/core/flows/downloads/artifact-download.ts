/**
 * One artifact of a run saved to disk, in named steps: its row folder, a file finished before
 * (skipped), inline text (written at once), or bytes fetched from its `accessUrl` into a hidden
 * `.partial` file that resumes with `Range` + `If-Range` and is renamed only when complete.
 */
import type { Hash } from 'node:crypto'
import { sha256Hash } from '../../files/hashing'
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs'
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import type { Artifact } from '../../../shared/contract'
import { rowFolderName, type RowNumbering } from '../../../shared/format'
import { nameInSheetRows } from './row-names'
import { ApiError, readAtMost, type HttpAnswer } from '../../service'
import type { Connection } from '../../environments/connection'
import { writeFileAtomically } from '../../files/atomic-write'
import { insideFolder, isInside } from '../../files/folders'
import { extensionOf } from '../../files/mime'
import { safeFileName } from '../../files/safe-names'
import type { DownloadRecord } from '../../storage/tables/downloads'
import type { DownloadLedger, LedgerEntry } from './download-ledger'
import { downloadCut } from './download-failures'
import type { DownloadedFile, DownloadProgress } from './download-types'
import { contentRangeStart, dispositionName, totalSize } from './response-headers'
import { stallGuarded } from './stall'

/** Above this size a download is recorded before its bytes come (see recordStart). */
const LARGE_FILE_BYTES = 1024 * 1024
/** Up to this size a download is read whole and written in one go. */
const SMALL_FILE_BYTES = 256 * 1024

/** What the downloads of one run's artifacts share. */
export interface RunDownloadState {
  connection: Connection
  signal: AbortSignal | undefined
  /** How long a transfer may go without a byte (see DownloadOptions.stallMs). */
  stallMs: number
  rowNumbering: RowNumbering | null | undefined
  ledger: DownloadLedger
  /** The run's own folder. */
  folder: string
  rowCount: number
  /** Paths an artifact of this run already has (recorded, or chosen in this download). */
  taken: Set<string>
  /** Row folders made in this download. */
  madeFolders: Set<string>
  /** Downloads under way: what to record if one is cut. */
  inFlight: Map<string, LedgerEntry>
  overall: DownloadProgress['overall']
  report(artifactId: string, path: string, received: number, total: number | null): void
}

/** Saves one artifact into its row folder (or finds it saved already). */
export async function downloadArtifact(
  run: RunDownloadState,
  artifact: Artifact,
): Promise<DownloadedFile> {
  const rowFolder = await rowFolderOf(run, artifact)
  const recorded = run.ledger.get(artifact.artifactId)
  // What was recorded counts only for this folder (the same run may be downloaded elsewhere).
  const known = recorded?.path && isInside(run.folder, recorded.path) ? recorded : undefined
  if (known && (await isStillSaved(known))) return alreadySaved(run, artifact, known)
  const baseName = safeFileName(artifact.portName || 'output', 'output')
  if (artifact.inlineText || !artifact.accessUrl)
    return saveInlineText(run, artifact, { rowFolder, baseName, known })
  return fetchToDisk(run, artifact, { rowFolder, baseName, known })
}

/** Where one artifact goes: its row folder, its name without extension, and what was recorded. */
interface Placement {
  rowFolder: string
  baseName: string
  known: DownloadRecord | undefined
}

/** The recorded path again, else a free name for `wanted` in the row folder. */
function pathFor(run: RunDownloadState, artifact: Artifact, place: Placement, wanted: string) {
  return (
    place.known?.path || freeName(place.rowFolder, inSheetRows(run, artifact, wanted), run.taken)
  )
}

async function rowFolderOf(run: RunDownloadState, artifact: Artifact): Promise<string> {
  const rowFolder = insideFolder(
    run.folder,
    rowFolderName(run.rowNumbering, artifact.sourceRowIndex, run.rowCount),
  )
  if (!run.madeFolders.has(rowFolder)) {
    await mkdir(rowFolder, { recursive: true })
    run.madeFolders.add(rowFolder)
  }
  return rowFolder
}

/** The hidden file an artifact's bytes go to until it is complete. */
function partialFileOf(rowFolder: string, artifact: Artifact): string {
  return insideFolder(rowFolder, `.${safeFileName(artifact.artifactId)}.partial`)
}

async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size
  } catch {
    return null
  }
}

/** Finished before, and still there with the same size. */
async function isStillSaved(known: DownloadRecord): Promise<boolean> {
  return known.state === 'done' && !!known.path && (await sizeOf(known.path)) === known.bytes
}

function alreadySaved(
  run: RunDownloadState,
  artifact: Artifact,
  known: DownloadRecord,
): DownloadedFile {
  run.overall.doneFiles += 1
  run.overall.reusedFiles += 1
  run.report(artifact.artifactId, known.path, known.bytes, known.bytes)
  return {
    artifactId: artifact.artifactId,
    path: known.path,
    bytes: known.bytes,
    skipped: true,
    resumedFrom: 0,
  }
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

/** An artifact whose content came inline: written as a file named after its MIME type. */
async function saveInlineText(
  run: RunDownloadState,
  artifact: Artifact,
  place: Placement,
): Promise<DownloadedFile> {
  const { rowFolder, baseName } = place
  const path = pathFor(
    run,
    artifact,
    place,
    baseName + extensionOf(artifact.mimeType || 'text/plain'),
  )
  const bytes = Buffer.from(artifact.inlineText, 'utf8')
  await writeFileAtomically(path, bytes, partialFileOf(rowFolder, artifact))
  const sha256 = sha256Hash().update(bytes).digest('hex')
  run.ledger.done(artifact.artifactId, { path, bytes: bytes.length, sha256 })
  run.overall.doneFiles += 1
  run.overall.receivedBytes += bytes.length
  run.report(artifact.artifactId, path, bytes.length, bytes.length)
  return {
    artifactId: artifact.artifactId,
    path,
    bytes: bytes.length,
    skipped: false,
    resumedFrom: 0,
  }
}

/** The server's answer for an artifact's bytes, resuming a partial file when it can. */
async function requestArtifact(
  run: RunDownloadState,
  artifact: Artifact,
  temp: string,
  known: DownloadRecord | undefined,
): Promise<{ response: HttpAnswer; resumed: boolean; start: number }> {
  const have = known?.state === 'partial' && known.etag ? ((await sizeOf(temp)) ?? 0) : 0
  const headers: Record<string, string> = {}
  if (have > 0 && known) {
    headers.Range = `bytes=${have}-`
    headers['If-Range'] = known.etag
  }
  let response: HttpAnswer
  try {
    response = await run.connection.client.fetchArtifact(artifact.accessUrl, {
      headers,
      signal: run.signal,
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
    throw downloadCut('The server answered with the wrong part of the file.')
  }
  return { response, resumed, start: resumed ? have : 0 }
}

/** A file name with the row's position as the folder numbers the row (row-names.ts). */
function inSheetRows(run: RunDownloadState, artifact: Artifact, name: string): string {
  return nameInSheetRows(name, run.rowNumbering, artifact.sourceRowIndex)
}

/** The name the server suggests, else the artifact's port name with its type's extension. */
function suggestedName(response: HttpAnswer, artifact: Artifact, baseName: string): string {
  return safeFileName(
    dispositionName(response.headers.get('content-disposition')) ??
      baseName + extensionOf(artifact.mimeType || response.headers.get('content-type') || ''),
    baseName,
  )
}

function closeStream(stream: WriteStream): Promise<void> {
  return new Promise((resolveClose, reject) => {
    stream.end((error?: Error | null) => (error ? reject(error) : resolveClose()))
  })
}

interface Transfer {
  artifactId: string
  temp: string
  path: string
  start: number
  total: number | null
  resumed: boolean
  /** Covers the part already on disk, then every chunk as it is written. */
  hash: Hash
}

/**
 * Writes the answer's bytes to the partial file; returns how many bytes the file now has. Only
 * what the answer announced is taken: a body that goes on past its length is a lie, not a bigger
 * file, and it is dropped (the next attempt starts over).
 */
async function receiveBody(
  run: RunDownloadState,
  response: HttpAnswer,
  transfer: Transfer,
): Promise<number> {
  const { artifactId, temp, path, start, total, resumed, hash } = transfer
  let received = start
  let overran = false
  const body = response.body
    ? stallGuarded(response.body, run.stallMs, () =>
        downloadCut(
          `The service stopped sending ${artifactId}: nothing came for ${Math.round(run.stallMs / 1000)} s.`,
        ),
      )
    : null
  if (!resumed && total !== null && total <= SMALL_FILE_BYTES) {
    // A small file is taken whole: fewer steps per file when a run has thousands.
    const { bytes, complete } = await readAtMost(body, total, run.signal)
    if (!complete) throw longerThanAnnounced(artifactId, total)
    hash.update(bytes)
    await writeFile(temp, bytes)
    received = bytes.length
    run.overall.receivedBytes += received
    run.report(artifactId, path, received, total)
  }
  const out = received === start ? createWriteStream(temp, { flags: resumed ? 'a' : 'w' }) : null
  try {
    if (out && body) {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        overran = total !== null && received + chunk.length > total
        if (overran) break
        hash.update(chunk)
        if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()))
        received += chunk.length
        run.overall.receivedBytes += chunk.length
        run.report(artifactId, path, received, total)
      }
    }
  } finally {
    if (out) await closeStream(out)
  }
  if (overran && total !== null) {
    await rm(temp, { force: true })
    throw longerThanAnnounced(artifactId, total)
  }
  return received
}

function longerThanAnnounced(artifactId: string, total: number): Error {
  return downloadCut(`The server sent more of ${artifactId} than the ${total} bytes it announced.`)
}

/**
 * Marks the download as under way. A large file is recorded before its bytes come, so that even
 * a crash leaves it resumable; a small one only if it is cut (see downloadWithRetries).
 */
function recordStart(
  run: RunDownloadState,
  artifactId: string,
  partial: LedgerEntry,
  total: number | null,
) {
  if (partial.etag && (total === null || total > LARGE_FILE_BYTES))
    run.ledger.put(artifactId, partial)
  run.inFlight.set(artifactId, partial)
}

/** An artifact fetched from its `accessUrl`, resumed when a partial file of it is on disk. */
async function fetchToDisk(
  run: RunDownloadState,
  artifact: Artifact,
  place: Placement,
): Promise<DownloadedFile> {
  const temp = partialFileOf(place.rowFolder, artifact)
  const { response, resumed, start } = await requestArtifact(run, artifact, temp, place.known)
  const total = totalSize(response, start)
  const path = pathFor(run, artifact, place, suggestedName(response, artifact, place.baseName))
  const etag = response.headers.get('etag') ?? ''
  const partial = { path, state: 'partial' as const, etag, bytes: total ?? 0 }
  recordStart(run, artifact.artifactId, partial, total)
  const hash = sha256Hash()
  if (resumed) for await (const chunk of createReadStream(temp)) hash.update(chunk as Buffer)
  const transfer = { artifactId: artifact.artifactId, temp, path, start, total, resumed, hash }
  const received = await receiveBody(run, response, transfer)
  if (total !== null && received !== total) {
    throw downloadCut(
      `The download of ${artifact.artifactId} stopped at ${received} of ${total} bytes.`,
    )
  }
  await rename(temp, path)
  run.inFlight.delete(artifact.artifactId)
  run.ledger.done(artifact.artifactId, { path, bytes: received, sha256: hash.digest('hex'), etag })
  run.overall.doneFiles += 1
  run.report(artifact.artifactId, path, received, total)
  return {
    artifactId: artifact.artifactId,
    path,
    bytes: received,
    skipped: false,
    resumedFrom: start,
  }
}
