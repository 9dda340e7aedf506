/**
 * What reading an input workbook is asked to do (ReadOptions) and what it answers (ReadResult),
 * whatever the file's format, and the sink every format's reader feeds its rows to.
 */
import type { InputRow, RowError } from '../../../shared/contract'
import type { CellValue } from '../../../shared/input-schema'
import type { ColumnMap } from '../mapping/column-map'
import type { MappingOutcome } from '../mapping/header-mapping'
import type { SpilledRows, SpillTarget } from './row-spill'

export interface ReadOptions {
  /** Keep the rows (for submitting); false for validation only (1,000,000 rows stay cheap). */
  keepRows?: boolean
  /** Check that local files named in file cells exist (false on the server). */
  checkFiles?: boolean
  /**
   * Files already uploaded for a workbook a page sent (browser mode), by the text of the file
   * cell that names them. When given, no path is looked at: a file cell names one of these, or
   * it is a row error.
   */
  fileAssets?: Record<string, string>
  /** Most row errors listed; the rest are counted. */
  maxRowErrors?: number
  /** Called now and then with the number of data rows read so far. */
  onProgress?: (rowsRead: number) => void
  /** Which xlsx reader: the fast one (default) or exceljs's (tests, and files the fast one cannot place). */
  xlsxReader?: 'fast' | 'exceljs'
  /**
   * Also keep each row's cells as the text the user typed (for showing the rows on screen, bad
   * cells included), with the header row and which field each column is.
   */
  keepCells?: boolean
  /** Values of run-scoped fields given outside the workbook (a form), by field key. */
  runValues?: Record<string, CellValue>
  /** The sheet to read, by name (the user chose it); without it the reader chooses. */
  sheet?: string
  /** A column mapping to apply: the sheet's header text -> field key (null: not used). */
  columnMap?: ColumnMap
  /** Mappings remembered for this template, by `headersKey()`: used when the headers are theirs. */
  rememberedMaps?: Record<string, ColumnMap>
  /**
   * Set the rows with problems aside: written, as they are read, to a workbook to fix at this
   * path, and left out of the result, when the file has no other problem and some row is good
   * (else no file is left there and the result is as without this).
   */
  setAside?: SetAsideTarget
  /**
   * Keep the rows in a file made at this path (row-spill.ts), not in `rows`: the result's
   * `spill` says where each is. A read that cannot be sent (a problem, no row) leaves no file.
   */
  spill?: SpillTarget
}

/** Where a set-aside workbook goes, and the lines its hidden sheet holds (where the rows came from). */
export interface SetAsideTarget {
  path: string
  about: [string, string][]
}

/** A sheet that could hold the rows, with the row that looks most like its header. */
export interface SheetHeader {
  name: string
  /** The sheet's row number of that row (0: the sheet has no rows). */
  headerRow: number
  /** Its cells as text. */
  header: string[]
  /** How many of its cells name one of the template's fields. */
  fit: number
}

/** Where a row error sits in the spreadsheet (for the annotated copy). */
export interface ErrorCell {
  /** Spreadsheet row number (1 = header). */
  row: number
  /** 1-based column number, or null when the field has no column. */
  column: number | null
}

export interface ReadResult {
  valid: boolean
  fileErrors: string[]
  rowErrors: RowError[]
  /** The cell of each row error, index for index. */
  errorCells: ErrorCell[]
  /** The rows kept (none when they were kept in a spill file: `spill`). */
  rows: InputRow[]
  /** With ReadOptions.spill, for a read that can be sent: the file holding its rows. */
  spill?: SpilledRows
  /** The sheet row of each kept row in the workbook read (in a set-aside one: its own rows). */
  rowNumbers: number[]
  /**
   * Read from a set-aside workbook (it has the Problem or the hidden Sheet row column): each kept
   * row's row in the user's own sheet it was set aside from, index for index with `rowNumbers`;
   * 0 where the Sheet row column says nothing (blank, not a whole number from 2 to a sheet's last
   * row, a row an earlier row of the workbook already gave, or no such column). Absent for any
   * other sheet. Such a workbook's added columns are no template's: a listing is sent a copy.
   */
  sourceRows?: number[]
  /** Data rows read (blank rows not counted). */
  rowCount: number
  /** Things the user should know that are no errors (e.g. which text encoding a csv was read in). */
  notices?: string[]
  /** True when the file itself could not be read (nothing to annotate). */
  unreadable?: boolean
  /** With `keepCells`: the header row's texts, and the field key of each column (null: none). */
  headers?: string[]
  columnFields?: (string | null)[]
  /** With `keepCells`: each kept row's cells as text, column for column. */
  cells?: string[][]
  /** The sheet the rows were read from (xlsx). */
  sheet?: string
  /** With more than one sheet that could hold the rows: each, with its header (xlsx). */
  sheets?: SheetHeader[]
  /** Set when sheets fit the template equally well: their names; the user must choose one. */
  sheetChoices?: string[]
  /** Sheet row numbers of rows hidden in the sheet: read past, not sent. */
  hiddenRows?: number[]
  /** The sheet row number of a total row at the end of the rows: read past, not sent. */
  totalRow?: number
  /** Empty rows among the rows (between the header and the last row), skipped. */
  emptyRowsSkipped?: number
  /** With a schema: the header row, how its columns were matched, and a proposal when needed. */
  mapping?: MappingOutcome
  /** With ReadOptions.setAside, when rows were set aside: the workbook to fix and its rows. */
  setAside?: {
    path: string
    rows: number
    /** Each row set aside by its sheet row, with its first problems. */
    list?: { sheetRow: number; problems: string[] }[]
  }
}

/** The sink every format's reader feeds. */
export interface RowSink {
  row(cells: CellValue[], rowNumber: number, hidden?: boolean): void
}
