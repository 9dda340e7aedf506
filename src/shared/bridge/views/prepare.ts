/**
 * Views of preparing a run (the "New run" screen): templates, input workbooks, checks and a
 * dropped file. Verbs: listTemplates, listCatalog, getTemplate, getListing (its view is the
 * buyer's, in spending.ts), saveInputWorkbook, checkWorkbook, cancelCheck, getCheckedRows,
 * saveMarkedUpCopy, openSavedFile, describeFile; event: checkProgress.
 */
import type { SchemaColumn, SchemaField } from '../../contract'
import type { RunTarget } from '../../run-target'

/** One official template the app knows for an environment. */
export interface TemplateChoice {
  templateId: string
  name: string
  description: string
  /** 'builtin': one of the built-in Sandbox's own; 'cached': its schema is saved on this computer. */
  source: 'builtin' | 'cached'
  /** When its schema was last fetched (ms since 1970), null when never. */
  fetchedAtMs: number | null
}

export interface TemplateListView {
  environment: string
  items: TemplateChoice[]
  /** True when the service could not be reached: the list is what this computer knows. */
  offline: boolean
}

/** A template's input schema, as the form on screen shows it. */
export interface TemplateView {
  environment: string
  templateId: string
  name: string
  description: string
  version: string
  instructions: string[]
  columns: SchemaColumn[]
  fields: SchemaField[]
  /** When the schema was fetched from the service (ms since 1970). */
  fetchedAtMs: number
  /** True when the service could not be reached and the copy saved on this computer is shown. */
  fromCache: boolean
  /** The address last asked to be called when a run of it ends, here; '' when none. */
  callbackUrl: string
}

/**
 * A file the engine made for the user: saved on this computer (desktop: where the user chose in
 * the save dialog), or handed to the page to download (browser mode). Null when cancelled.
 */
export type SavedFileView =
  | { kind: 'path'; fileName: string; path: string; canOpen: boolean }
  | { kind: 'bytes'; fileName: string; mimeType: string; base64: string }

/** Pushed while `checkWorkbook` reads a workbook. */
export interface CheckProgressUpdate {
  checkId: string
  rowsRead: number
}

/** A column of the checked workbook, as it is in the file. */
export interface CheckedColumn {
  /** The column's letter in the sheet (A, B, …). */
  letter: string
  header: string
  /** The field it feeds, or null when it feeds none (an unknown column). */
  fieldKey: string | null
  label: string
  type: string
}

/** One problem of a checked workbook, with where to find it. */
export interface CheckedProblem {
  message: string
  fieldKey: string
  /** The spreadsheet row (1 is the header row). */
  rowNumber: number
  /** 1-based column in the sheet, null when the field has no column (e.g. missing). */
  column: number | null
  /** Index of the row among the rows the grid shows, null when it is not one of them. */
  rowPosition: number | null
}

/** A file named in a file cell: found on this computer, not found, a web address, or unknown. */
export interface FileCellView {
  /** What the cell says (a path relative to the workbook, an absolute path, or a URL). */
  value: string
  rowNumber: number
  fieldKey: string
  /**
   * 'found' / 'missing': checked on this computer (desktop). 'url': sent as a web address.
   * 'unchecked': the page sent the workbook without its folder (browser mode): drop the folder.
   */
  state: 'found' | 'missing' | 'url' | 'unchecked'
}

/** The result of reading and checking a workbook (rows are fetched by `getCheckedRows`). */
export interface WorkbookCheckView {
  checkId: string
  environment: string
  fileName: string
  sizeBytes: number
  /** What it was checked against; null when no template was chosen and the file names none. */
  target: (RunTarget & { name: string }) | null
  /** True when the target was read from the workbook's hidden sheet (it was made by the app). */
  targetFromWorkbook: boolean
  valid: boolean
  fileErrors: string[]
  problems: CheckedProblem[]
  /** Rows with data (blank rows skipped). */
  rowCount: number
  columns: CheckedColumn[]
  /** Fields asked once for the whole run, with the value in use ('' when none). */
  runFields: { field: SchemaField; value: string }[]
  fileCells: FileCellView[]
  /** True when the schema was the copy saved on this computer (the service was not reached). */
  schemaFromCache: boolean
  checkedAtMs: number
  /**
   * What the reader says that is no problem: the sheet it chose, rows hidden in the sheet or a
   * total row (read past, not sent), empty rows skipped, a csv's encoding.
   */
  notices?: string[]
  /** The sheet the rows were read from (an xlsx). */
  sheet?: string
  /** Sheets that fit the template equally well: the user picks one, and it is checked again. */
  sheetChoices?: string[]
  /** How the sheet's columns feed the fields, when its headers are not the template's own. */
  mapping?: ColumnMappingView
}

/** One column of the user's sheet and the field it feeds (or would, as proposed). */
export interface MappedColumnView {
  header: string
  /** The column's letter in the sheet. */
  letter: string
  /** The field chosen or proposed; null: not used. */
  fieldKey: string | null
  /** 0..1, how sure the proposal is (1: the field's own header, or chosen by the user). */
  confidence: number
  /** The first values under the header (up to three). */
  samples: string[]
}

/** The column mapping of a sheet whose headers are not the template's own. */
export interface ColumnMappingView {
  /** proposed: waiting for the user; remembered: confirmed before for these headers; given: just confirmed. */
  source: 'proposed' | 'remembered' | 'given'
  /** The header's spreadsheet row (rows above it were a title, notes or blank). */
  headerRow: number
  columns: MappedColumnView[]
  /** The fields a column can feed, in the template's order. */
  fields: { key: string; label: string; required: boolean }[]
  /** True when two choices were close: the user should look before confirming. */
  ambiguous: boolean
}

/** A page of a checked workbook's rows, for the grid. */
export interface CheckedRowsView {
  checkId: string
  offset: number
  total: number
  rows: { rowNumber: number; cells: string[]; badColumns: number[] }[]
}

/** A file the user dropped or picked. */
export interface DroppedFileInfo {
  name: string
  sizeBytes: number
  /** 'path' when the engine read it from disk (desktop), 'bytes' when the page sent it. */
  source: 'path' | 'bytes'
}
