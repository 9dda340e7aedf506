/**
 * Views of files moving between this computer and the service: a dropped file, uploads of input
 * files, and downloads of a run's artifacts (with their progress events).
 */

/** A file the user dropped or picked. */
export interface DroppedFileInfo {
  name: string
  sizeBytes: number
  /** 'path' when the engine read it from disk (desktop), 'bytes' when the page sent it. */
  source: 'path' | 'bytes'
}

/** Input files being uploaded (pushed while `uploadFiles` works). */
export interface UploadProgressUpdate {
  environment: string
  /** The file this update is about, by its name. */
  name: string
  state: 'hashing' | 'uploading' | 'done' | 'reused' | 'failed'
  sentBytes: number
  totalBytes: number
  overall: { sentBytes: number; totalBytes: number; doneFiles: number; totalFiles: number }
}

/** The input assets made (or found again) for the files, in the order given. */
export interface UploadResultView {
  environment: string
  assets: { name: string; inputAssetId: string; sizeBytes: number; reused: boolean }[]
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
