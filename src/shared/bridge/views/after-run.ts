/**
 * Views of after the run: a run's overview, artifact previews, the results workbook, saving a
 * run's outputs (downloadRun, with downloadProgress and outputsSaved), showing saved files, and
 * the history of submissions from this device.
 */
import type { RunDetail } from '../../contract'
import type { BatchSendKind } from './batches'
import type { RunRowsCounts } from './runs'

/** A run as its detail page shows it: the service's detail plus what this device knows. */
export interface RunOverview {
  environment: string
  unitLabel: string
  /** The run's detail; for a run shown a window at a time, without its tasks and outputs. */
  detail: RunDetail
  /** Present when the run is shown a window at a time (getRunRows, getRunOutputs). */
  rows?: RunRowsCounts
  /** Submitted from this device (the history knows its input file and row numbers). */
  fromThisDevice: boolean
  inputFilename: string
  /**
   * The spreadsheet row of each submitted row (index = sourceRowIndex) when the rows came from a
   * workbook on this device; null otherwise (rows are then named by their submitted position).
   */
  rowNumbers: number[] | null
  /** The run whose failed rows this one retried ('' when none). */
  retryOfRunId: string
  /** Runs that retried this one's failed rows, from this device. */
  retriedBy: string[]
  /** The run whose set-aside rows this one sent once fixed (a follow-up of it). */
  followUpOfRunId?: string
  /** Runs that sent this one's set-aside rows once fixed (its follow-ups), oldest first. */
  followUps?: string[]
  /** Where this run's outputs were saved here, and how many files ('' / 0 when not yet). */
  savedFolder: string
  savedFiles: number
  /** The results workbook saved here, '' when not yet. */
  resultsWorkbook: string
  /** Rows with problems set aside to fix when this run was sent here (saveSetAsideRows). */
  setAsideRows?: number
  /** The batch this run belongs to ('' or absent: not sent from a sheet here); getBatch tells more. */
  batchId?: string
  /** The address this computer asked the service to call when the run ends; absent for none. */
  callbackUrl?: string
}

/** A bounded preview of one artifact's content, fetched by the engine (never a URL or token). */
export interface ArtifactPreviewView {
  artifactId: string
  mimeType: string
  kind: 'text' | 'json' | 'csv' | 'image' | 'none'
  /** Text, JSON (pretty-printed) or CSV source, cut at the preview limit. */
  text: string
  /** CSV as rows of cells (the first rows only). */
  table: string[][]
  /** An image as a data: URL (raster images within the size limit). */
  dataUrl: string
  /** The content was longer than what is shown. */
  truncated: boolean
  /** Why there is no preview, in words ('' when there is one). */
  note: string
}

/** What "Save results workbook" made. */
export interface ResultsWorkbookView {
  environment: string
  runId: string
  /** The workbook's full path. */
  path: string
  /** Where the outputs it links to were saved. */
  folder: string
  rows: number
  failedDownloads: number
}

/** What "Show in folder" did: shown by the desktop, or the path for the user to copy. */
export interface ShowInFolderView {
  path: string
  shown: boolean
}

/** A run's row counters, as the service last reported them. */
export interface RunCounts {
  totalTasks: number
  completedTasks: number
  failedTasks: number
  cancelledTasks: number
}

/** One submission from this device, as the history lists it. */
export interface HistoryEntryView {
  id: number
  environment: string
  target: string
  targetKind: 'template' | 'listing'
  /**
   * The template's or listing's name as this computer knows it (its run, its saved schema or
   * another run of it); '' when none names it, and the window says the kind and the id.
   */
  targetName?: string
  inputFilename: string
  rows: number
  /** pending, sent, accepted or refused (the journal's state). */
  state: string
  error: string
  runId: string
  /** The run's latest status seen here ('' when never seen). */
  runStatus: string
  runName: string
  /** The run's row counters as last seen here (null when never seen): how it ended, in words. */
  runCounts: RunCounts | null
  /** The cost: actual once the run ended, else the estimate (see costIsEstimate). */
  costT: number
  costIsEstimate: boolean
  unitLabel: string
  /** Outputs saved on this device. */
  downloadedFiles: number
  retryOfRunId: string
  /** Runs that retried this submission's run (its follow-ups are not among them). */
  retries: string[]
  /**
   * The run whose set-aside rows this submission sent once fixed: it is that run's follow-up
   * (retryOfRunId names the same run, as it did before follow-ups were told apart).
   */
  followUpOfRunId?: string
  /** The runs that sent this run's set-aside rows once fixed (its follow-ups), oldest first. */
  followUps?: string[]
  /** The pilot's run when this submission sent the rest of its workbook (one batch). */
  batchOfRunId?: string
  /** For a pilot: the runs that sent the rest of its workbook (the same batch). */
  batchRests?: string[]
  /** Rows with problems set aside to fix when this run was sent (saveSetAsideRows). */
  setAsideRows?: number
  /** The batch (the buyer's sheet across its runs) this submission belongs to ('' when none). */
  batchId?: string
  /** How it was sent within its batch (all, pilot, rest, follow-up, retry, redo...). */
  sendKind?: BatchSendKind
  /** The address the service was asked to call when the run ends; absent for none. */
  callbackUrl?: string
  createdAtMs: number
}

export interface HistoryPage {
  items: HistoryEntryView[]
  /** More entries match than were returned. */
  more: boolean
}

/** A run's artifacts being saved to disk (pushed while `downloadRun` works). */
export interface DownloadProgressUpdate {
  environment: string
  runId: string
  doneFiles: number
  totalFiles: number
  receivedBytes: number
}

/** What `downloadRun` saved: where, how many files, and what failed with what to do. */
export interface DownloadResultView {
  environment: string
  runId: string
  /** The run's folder on this computer. */
  folder: string
  savedFiles: number
  /** Files already there from an earlier download. */
  skippedFiles: number
  failed: { artifactId: string; message: string; nextStep: string }[]
}
