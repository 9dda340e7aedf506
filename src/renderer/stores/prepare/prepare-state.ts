/**
 * The types the "New run" slices share: the whole state (every step's data and actions), what
 * the store is made from, and what each slice gets to read and change it. Kept apart from
 * prepare-store.ts so a slice never imports the file that composes it.
 */
import type { StoreApi } from 'zustand/vanilla'
import type { BridgeApi, FileRef, SavedFileView } from '../../../shared/bridge'
import type { CheckActions, CheckData } from './check-types'
import type { DraftActions, DraftData } from './draft-types'
import type { FilesActions, FilesData } from './files-types'
import type { SendActions, SendData } from './send-types'
import type { TargetActions, TargetData } from './target-types'

export interface PrepareDeps {
  api: BridgeApi
  /** A dropped File as the engine takes it (its path in the desktop app, its bytes in a browser). */
  toFileRef(file: File): Promise<FileRef>
  /** Hands bytes the engine made to the browser as a download. */
  download(file: Extract<SavedFileView, { kind: 'bytes' }>): void
  newId?: () => string
  /** How long the draft waits after the last change before it is saved (ms). */
  draftDelayMs?: number
}

export interface PrepareData extends TargetData, CheckData, FilesData, SendData, DraftData {
  /** The environment the screen prepares a run for; every step works in it. */
  environment: string | null
}

export interface PrepareActions
  extends TargetActions, CheckActions, FilesActions, SendActions, DraftActions {
  open(environment: string): Promise<void>
  reset(): void
}

export type PrepareState = PrepareData & PrepareActions

/**
 * What a slice works with: the whole store (a step reads the steps before it, and clears what a
 * change of its own makes stale) and the outside world.
 */
export interface SliceContext {
  set: StoreApi<PrepareState>['setState']
  get: StoreApi<PrepareState>['getState']
  api: BridgeApi
  toFileRef: PrepareDeps['toFileRef']
  download: PrepareDeps['download']
  newId: () => string
  /** Workbooks brought back from a draft in the desktop app: read from the user's own path. */
  restoredPaths: WeakMap<File, FileRef>
}
