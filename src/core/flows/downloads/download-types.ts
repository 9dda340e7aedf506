/** What a run's download reports and returns (shared by the steps in this folder). */
import type { RunSummary } from '../../../shared/contract'
import type { RowNumbering } from '../../../shared/format'
import type { StoredRead } from '../watch/stored-detail'

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
  /** `reusedFiles` of the `doneFiles` were already on disk: nothing was fetched for them. */
  overall: { doneFiles: number; totalFiles: number; receivedBytes: number; reusedFiles: number }
}

export interface DownloadOptions {
  signal?: AbortSignal
  /** Downloads at once (default 4). */
  concurrency?: number
  /** Attempts per artifact when the connection breaks (default 3). */
  attempts?: number
  /**
   * How long a transfer may go without a byte before it is cut and tried again (ms, default
   * 60 s). A file may take as long as it needs while its bytes keep coming.
   */
  stallMs?: number
  onProgress?: (progress: DownloadProgress) => void
  /** How the run's rows are named (folders `row-006`); by position when not given. */
  rowNumbering?: RowNumbering | null | undefined
  /** Told the run's summary as it was read, before its outputs are saved. */
  seen?: (run: RunSummary) => void
  /**
   * Whether the download returns every saved file (`files`); without it, only their counts, so
   * that saving a run of any size holds nothing per output.
   */
  listFiles?: boolean
  /**
   * The run's detail as the caller has just read it into the history: its outputs are saved from
   * there, not read again (a run that has just ended and is saved at once: a part of 10,000 rows
   * is a 25 MB detail). Their addresses are still read again when the service refuses one.
   */
  justRead?: StoredRead | undefined
}

export interface RunDownload {
  runId: string
  /** The run's own folder inside the chosen one. */
  folder: string
  /** Outputs on disk now, `reused` of them found there already (nothing fetched). */
  saved: number
  reused: number
  /** What could not be saved, in the service's order. */
  failed: FailedDownload[]
  /** Every saved file in the service's order, when `listFiles` asked for them. */
  files?: DownloadedFile[]
}

/** A run's download that lists its files (`listFiles: true`). */
export type ListedDownload = RunDownload & { files: DownloadedFile[] }
