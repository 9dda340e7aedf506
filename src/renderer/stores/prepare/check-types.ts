/**
 * The state and actions of check-slice.ts, kept apart from its code so the store's state type can
 * name them without importing the slice (no import circle).
 */
import type {
  BridgeErrorInfo,
  CheckProgressUpdate,
  SavedFileView,
  WorkbookCheckView,
} from '../../../shared/bridge'

export type CheckState = 'idle' | 'reading' | 'done' | 'error'

export interface CheckData {
  /** The workbook the user dropped or chose, and its check. */
  file: File | null
  checkState: CheckState
  checkId: string
  rowsRead: number
  check: WorkbookCheckView | null
  checkError: BridgeErrorInfo | null
  /** The cell the grid shows and highlights (from the error list). */
  focus: { rowPosition: number; column: number | null; seq: number } | null

  /** The workbook taken off screen when another target was chosen: dropped again, it is checked. */
  leftWorkbook: string | null

  /** Run-scoped values typed in the small form, by field key. */
  runValues: Record<string, string>
  /** The sheet the user chose among several that fit equally (null: the reader chooses). */
  sheet: string | null

  markedUpSaving: boolean
  markedUpSaved: SavedFileView | null
  markedUpError: BridgeErrorInfo | null
}

export interface CheckActions {
  takeFile(file: File): Promise<void>
  checkAgain(): Promise<void>
  cancelCheck(): Promise<void>
  applyProgress(update: CheckProgressUpdate): void
  focusProblem(rowPosition: number, column: number | null): void
  setRunValue(key: string, value: string): void
  /** Reads the workbook again from the sheet the user chose. */
  chooseSheet(sheet: string): Promise<void>
  applyRunValues(): Promise<void>
  saveMarkedUp(): Promise<void>
  /** Checks the workbook again with the column mapping the user confirmed (it is remembered). */
  confirmMapping(mapping: Record<string, string | null>): Promise<void>
}
