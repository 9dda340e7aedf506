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
 *
 * The steps for one artifact are in artifact-download.ts; this file runs them for a whole run.
 */
import type { Artifact, RunDetail, RunSummary } from '../../../shared/contract'
import { retryDelay } from '../../service'
import type { Connection } from '../../environments/connection'
import { ensureFolder, insideFolder } from '../../files/folders'
import { safeFileName } from '../../files/safe-names'
import type { Db } from '../../storage/db'
import { DownloadsTable } from '../../storage/tables/downloads'
import { RunRowsTable } from '../../storage/tables/run-rows'
import { readStoredRun } from '../watch/stored-detail'
import { downloadArtifact, type RunDownloadState } from './artifact-download'
import { DownloadLedger } from './download-ledger'
import { describeFailure, DOWNLOAD_RETRY_POLICY, failureOf } from './download-failures'
import { addressRefused, FreshAddresses } from './fresh-addresses'
import type {
  DownloadedFile,
  DownloadOptions,
  FailedDownload,
  ListedDownload,
  RunDownload,
} from './download-types'

/** A transfer that sends nothing for this long is cut and tried again (resuming). */
const DEFAULT_STALL_MS = 60_000

export type { DownloadOptions, ListedDownload, RunDownload } from './download-types'
// Callers outside this folder name files with it from here.
export { safeFileName }

/** The run's folder: its id, marked as a run when the id does not say so already. */
export function runFolderName(runId: string): string {
  return safeFileName(/^run[_-]/i.test(runId) ? runId : `run-${runId}`, 'run')
}

/**
 * A file of a run named as the buyer knows the run: what it ran, the workbook sent and the day
 * ("Product texts - prices - 28 Nov 2026 rows to fix.xlsx"), never the service's run id.
 */
export function runFileName(
  run: { targetName: string; inputFilename: string; createdAtMs: number },
  what: string,
  options: { time?: boolean } = {},
): string {
  const sheet = run.inputFilename.replace(/\.(xlsx|xlsm|xls|csv|tsv|txt)$/i, '')
  const at = new Date(run.createdAtMs)
  const day = run.createdAtMs
    ? at.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' })
    : ''
  // With the time to the second (a file name has no colon): "28 Nov 2026 14.05.32".
  const time =
    run.createdAtMs && options.time
      ? ` ${[at.getHours(), at.getMinutes(), at.getSeconds()].map((n) => String(n).padStart(2, '0')).join('.')}`
      : ''
  const title = [run.targetName, sheet, day && `${day}${time}`].filter(Boolean).join(' - ')
  return safeFileName(`${title ? `${title} ` : ''}${what}.xlsx`, `${what}.xlsx`)
}

/**
 * What a run's download goes through: its outputs in the service's order, how many rows it has
 * (for the width of its row folders' numbers), and its outputs read anew (fresh addresses).
 */
interface RunOutputs {
  run: RunSummary
  rowCount: number
  outputCount: number
  outputs: Iterator<Artifact>
  readAgain: () => Promise<Iterable<Artifact>>
}

/** A run's outputs from its detail, held whole already. */
function heldOutputs(connection: Connection, detail: RunDetail, signal?: AbortSignal): RunOutputs {
  // A loop, not a spread into Math.max: a run's tasks can be more than an argument list holds.
  let rowCount = Math.max(detail.run.totalTasks ?? 0, 1)
  for (const task of detail.tasks) rowCount = Math.max(rowCount, task.sourceRowIndex + 1)
  return {
    run: detail.run,
    rowCount,
    outputCount: detail.artifacts.length,
    outputs: detail.artifacts[Symbol.iterator](),
    readAgain: async () => (await connection.client.run(detail.run.runId, { signal })).artifacts,
  }
}

/**
 * A run's outputs read into the history as its detail arrives (flows/watch/stored-detail.ts),
 * or as the caller has just read them there (`justRead`), then a page at a time: a run of
 * 100,000 rows is never held whole.
 */
async function storedOutputs(
  connection: Connection,
  rows: RunRowsTable,
  runId: string,
  { signal, justRead }: Pick<DownloadOptions, 'signal' | 'justRead'>,
): Promise<RunOutputs> {
  const where = { historyKey: connection.historyKey, runId, keepUpTo: 0 }
  const read =
    justRead?.head.run.runId === runId
      ? justRead
      : await readStoredRun(connection.client, rows, where, { signal })
  const outputs = rows.outputsOf(connection.historyKey, runId)
  return {
    run: read.head.run,
    rowCount: Math.max(
      read.head.run.totalTasks ?? 0,
      rows.lastRowIndex(connection.historyKey, runId) + 1,
      1,
    ),
    outputCount: read.counts.outputs,
    outputs: outputs[Symbol.iterator](),
    readAgain: async () => {
      await readStoredRun(connection.client, rows, where, { signal })
      return outputs
    },
  }
}

/** Makes the run's folder and gathers what its artifacts' downloads share. */
async function startRunDownload(
  ledger: DownloadLedger,
  connection: Connection,
  source: RunOutputs,
  outDir: string,
  options: DownloadOptions,
): Promise<RunDownloadState> {
  const folder = insideFolder(outDir, runFolderName(source.run.runId))
  await ensureFolder(folder)
  const overall = {
    doneFiles: 0,
    totalFiles: source.outputCount,
    receivedBytes: 0,
    reusedFiles: 0,
  }
  return {
    connection,
    signal: options.signal,
    stallMs: options.stallMs ?? DEFAULT_STALL_MS,
    rowNumbering: options.rowNumbering,
    ledger,
    folder,
    rowCount: source.rowCount,
    taken: ledger.paths(folder),
    madeFolders: new Set(),
    inFlight: new Map(),
    overall,
    report: (artifactId, path, received, total) =>
      options.onProgress?.({
        artifactId,
        path,
        receivedBytes: received,
        totalBytes: total,
        overall,
      }),
  }
}

/**
 * One artifact, tried again while the failure is worth it; a last failure is recorded. An
 * address that was refused is asked for again (the run's detail read anew) and the download
 * goes on with it, resuming what is on disk; that does not count as an attempt.
 */
async function downloadWithRetries(
  run: RunDownloadState,
  first: Artifact,
  attempts: number,
  addresses: FreshAddresses,
): Promise<DownloadedFile | FailedDownload> {
  let artifact = first
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await downloadArtifact(run, artifact)
    } catch (error) {
      run.signal?.throwIfAborted()
      // A cut file stays partial (with its ETag), so that the next attempt, now or in a later
      // download of the run, resumes it.
      const partial = run.inFlight.get(artifact.artifactId)
      if (partial?.etag) run.ledger.put(artifact.artifactId, partial)
      const renewed = addressRefused(error) ? await addresses.renew(artifact) : null
      if (renewed) {
        artifact = renewed
        attempt -= 1
        continue
      }
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
        run.ledger.put(artifact.artifactId, { state: 'failed', error: failure.error })
      run.overall.doneFiles += 1
      run.report(artifact.artifactId, '', 0, null)
      return { artifactId: artifact.artifactId, ...failure }
    }
  }
}

async function downloadRun(
  db: Db,
  table: DownloadsTable,
  connection: Connection,
  source: RunOutputs,
  outDir: string,
  options: DownloadOptions = {},
): Promise<RunDownload> {
  const runId = source.run.runId
  const ledger = new DownloadLedger(db, table, connection.historyKey, runId)
  const run = await startRunDownload(ledger, connection, source, outDir, options)
  const addresses = new FreshAddresses(source.readAgain)
  const outcomes = new Outcomes(options.listFiles ? source.outputCount : null)
  // A few at a time, in the server's order: each worker takes the next artifact when it is free,
  // so only as many downloads as workers are under way, whatever the run's size.
  let next = 0
  const workers = Array.from({ length: Math.max(1, options.concurrency ?? 4) }, async () => {
    for (;;) {
      options.signal?.throwIfAborted()
      const artifact = source.outputs.next()
      if (artifact.done) return
      const at = next++
      const outcome = await downloadWithRetries(
        run,
        artifact.value,
        options.attempts ?? 3,
        addresses,
      )
      outcomes.add(at, outcome)
    }
  })
  try {
    await Promise.all(workers)
  } finally {
    ledger.flush()
  }
  return { runId, folder: run.folder, ...outcomes.result() }
}

/**
 * A run's outcomes as they end: counted, its failures kept (with their place, to give them in
 * the server's order), and its files only when listed (`listed`: one place per output).
 */
class Outcomes {
  private saved = 0
  private reused = 0
  private readonly failed: [number, FailedDownload][] = []
  private readonly files: (DownloadedFile | undefined)[] | null

  constructor(listed: number | null) {
    this.files = listed === null ? null : new Array<DownloadedFile | undefined>(listed)
  }

  add(at: number, outcome: DownloadedFile | FailedDownload) {
    if (!('path' in outcome)) {
      this.failed.push([at, outcome])
      return
    }
    this.saved += 1
    if (outcome.skipped) this.reused += 1
    if (this.files) this.files[at] = outcome
  }

  result(): Omit<RunDownload, 'runId' | 'folder'> {
    const failed = this.failed.sort(([a], [b]) => a - b).map(([, failure]) => failure)
    const { saved, reused } = this
    if (!this.files) return { saved, reused, failed }
    return { saved, reused, failed, files: this.files.filter((f) => f !== undefined) }
  }
}

/** A run's outputs saved to disk, resumable (the `downloads` table). */
export class Downloads {
  private readonly table: DownloadsTable
  /** Runs' rows as stored when their detail was read, for whoever reads them after a download. */
  readonly rows: RunRowsTable

  constructor(private readonly db: Db) {
    this.table = new DownloadsTable(db)
    this.rows = new RunRowsTable(db)
  }

  /**
   * Downloads every artifact of a run into `<outDir>/<run folder>/<row folder>/`: from its
   * detail when given, else read into the history and downloaded a page at a time. `seen` is
   * told the run's summary as it was read.
   */
  run(
    connection: Connection,
    runOrDetail: string | RunDetail,
    outDir: string,
    options: DownloadOptions & { listFiles: true },
  ): Promise<ListedDownload>
  run(
    connection: Connection,
    runOrDetail: string | RunDetail,
    outDir: string,
    options?: DownloadOptions,
  ): Promise<RunDownload>
  async run(
    connection: Connection,
    runOrDetail: string | RunDetail,
    outDir: string,
    options: DownloadOptions = {},
  ): Promise<RunDownload> {
    const source =
      typeof runOrDetail === 'string'
        ? await storedOutputs(connection, this.rows, runOrDetail, options)
        : heldOutputs(connection, runOrDetail, options.signal)
    options.seen?.(source.run)
    return downloadRun(this.db, this.table, connection, source, outDir, options)
  }

  /** Where one output of a run was saved last ('' when it is not saved). */
  savedPath(historyKey: string, runId: string, artifactId: string): string {
    const record = this.table.get(historyKey, runId, artifactId)
    return record?.state === 'done' ? record.path : ''
  }
}
