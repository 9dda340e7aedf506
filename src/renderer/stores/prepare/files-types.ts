/**
 * The state and actions of files-slice.ts, kept apart from its code so the store's state type can
 * name them without importing the slice (no import circle).
 */
import type { BridgeErrorInfo, FileCellView, UploadProgressUpdate } from '../../../shared/bridge'

/** Files of a dropped folder, by their path relative to it ("photos/a.png"). */
export type FolderFiles = Map<string, File>

/** One file being uploaded, by its path relative to the dropped folder. */
export interface UploadItem {
  name: string
  state: UploadProgressUpdate['state'] | 'waiting'
  sentBytes: number
  totalBytes: number
  inputAssetId: string
}

export interface FilesData {
  /** Browser mode: files of the folder the user dropped, by path relative to it. */
  folder: FolderFiles
  uploads: UploadItem[]
  uploading: boolean
  /** The id `cancelWork` stops the uploads under way by; '' when none run. */
  uploadWorkId: string
  /** The user stopped the uploads (said until the next try). */
  uploadStopped: boolean
  uploadError: BridgeErrorInfo | null
  overall: UploadProgressUpdate['overall'] | null
}

export interface FilesActions {
  addFolder(files: FolderFiles): void
  uploadFiles(): Promise<void>
  /** Aborts the uploads under way; files not finished go back to waiting, to upload again. */
  cancelUploads(): void
  applyUploadProgress(update: UploadProgressUpdate): void
}

export interface ResolvedFileCell extends FileCellView {
  /** The file to upload (browser mode: from the dropped folder), or null. */
  file: File | null
  /** The name the file is uploaded under (its path in the folder, or the cell's value). */
  key: string
}
