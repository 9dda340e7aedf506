/**
 * The state and actions of outputs-slice.ts, kept apart from its code so the store's state type can
 * name them without importing the slice (no import circle).
 */
import type {
  ArtifactPreviewView,
  BridgeErrorInfo,
  DownloadProgressUpdate,
  ResultsWorkbookView,
} from '../../../shared/bridge'

export type PreviewState =
  | { state: 'loading' }
  | { state: 'done'; value: ArtifactPreviewView }
  | { state: 'failed'; error: BridgeErrorInfo }

export type ResultsState =
  | { state: 'idle' }
  | { state: 'saving'; doneFiles: number; totalFiles: number }
  | { state: 'saved'; value: ResultsWorkbookView }
  | { state: 'failed'; error: BridgeErrorInfo }

export type ShowItem = 'outputs' | 'results' | 'artifact'

export interface OutputsActions {
  preview(artifactId: string): Promise<void>
  closePreview(): void
  saveResults(): Promise<void>
  showInFolder(item: ShowItem, artifactId?: string): Promise<void>
  applyProgress(update: DownloadProgressUpdate): void
}
