/**
 * Column mapping and checking, whatever the file format: every reader (csv.ts, xlsx.ts,
 * xlsx-exceljs.ts) hands rows of cells to a Collector, which finds the header row, maps columns
 * to the template's fields (by the hidden mapping sheet the generator writes, else by header
 * label, else by field key; case, spaces and the required marker ignored), coerces and checks
 * every cell, and keeps the errors (bounded) and the rows (optional). Blank rows are skipped but
 * keep their spreadsheet row numbers. Tested without any file.
 */
import { statSync } from 'node:fs'
import { dirname, isAbsolute, resolve } from 'node:path'
import type { InputRow, ListingInputSchema, RowError, SchemaField } from '../../shared/contract'
import {
  cellMessage,
  CellProblem,
  checkCell,
  coerceCell,
  headerKey,
  isBlank,
  plainField,
  type CellValue,
  type WireValue,
} from '../../shared/input-schema'
import { mimeTypeOf } from '../files/mime'
import { MAX_FILE_ERRORS } from './limits'
import type { WorkbookSource } from './source'

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
  rows: InputRow[]
  rowNumbers: number[]
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
}

/** The sink every format's reader feeds. */
export interface RowSink {
  row(cells: CellValue[], rowNumber: number): void
}

/** Sheet names the generator writes besides the input sheet. */
export const SHEETS = {
  errors: 'Errors',
  input: 'Input',
  run: 'Run settings',
  instructions: 'Instructions',
  samples: 'Samples',
  mapping: '_fields',
}

/** A cell as text for headers and generic columns (a date as its day, or with its time). */
export function cellText(cell: CellValue): string {
  if (cell instanceof Date) {
    if (Number.isNaN(cell.getTime())) return ''
    const iso = cell.toISOString()
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19)
  }
  return String(cell)
}

const REPLACEMENT = '\uFFFD'

/** Maps columns, coerces cells, keeps errors (bounded) and rows (optional). */
export class Collector implements RowSink {
  readonly fileErrors: string[] = []
  readonly notices: string[] = []
  private extraFileErrors = 0
  private replacement: { row: number; column: number; count: number } | null = null
  readonly rowErrors: RowError[] = []
  readonly errorCells: ErrorCell[] = []
  private extraErrors = 0
  private readonly onProgress?: (rowsRead: number) => void
  /** From the hidden mapping sheet: column letter -> field key, header text -> field key. */
  private readonly mappedLetters = new Map<string, string>()
  private readonly mappedHeaders = new Map<string, string>()
  readonly rows: InputRow[] = []
  readonly rowNumbers: number[] = []
  rowCount = 0
  /** column index -> field (or null for an unknown column) */
  private columns: (SchemaField | null)[] = []
  private headerSeen = false
  private readonly runValues = new Map<string, CellValue>()
  private readonly fields: Map<string, SchemaField>
  private readonly keepRows: boolean
  private readonly checkFiles: boolean
  private readonly maxRowErrors: number
  private readonly baseDir: string
  private readonly fileCache = new Map<string, string | null>()
  private readonly fileAssets: Map<string, string> | null
  private readonly keepCells: boolean
  private headers: string[] = []
  readonly cells: string[][] = []

  constructor(
    private readonly schema: ListingInputSchema | null,
    source: WorkbookSource,
    options: ReadOptions,
  ) {
    this.fields = new Map((schema?.fields ?? []).map((f) => [f.key, f]))
    this.keepRows = options.keepRows ?? true
    this.checkFiles = options.checkFiles ?? 'path' in source
    this.fileAssets = options.fileAssets
      ? new Map(Object.entries(options.fileAssets).map(([k, v]) => [cellPathKey(k), v]))
      : null
    this.maxRowErrors = options.maxRowErrors ?? 1000
    this.onProgress = options.onProgress
    this.baseDir = 'path' in source ? dirname(resolve(source.path)) : ''
    this.keepCells = options.keepCells ?? false
    for (const [key, value] of Object.entries(options.runValues ?? {})) {
      const field = this.fields.get(key)
      if (field?.scope === 'run' && !isBlank(value)) this.runValues.set(key, value)
    }
  }

  fail(message: string): ReadResult {
    this.fileError(message)
    this.unreadable = true
    return this.finish()
  }

  private unreadable = false

  /** A problem with the whole file; past MAX_FILE_ERRORS they are counted, not listed. */
  fileError(message: string) {
    if (this.fileErrors.length >= MAX_FILE_ERRORS) this.extraFileErrors += 1
    else this.fileErrors.push(message)
  }

  /** One row of the hidden mapping sheet: `templateId`/`version` rows, then column rows. */
  mappingRow(cells: CellValue[]) {
    const [a, b, c] = cells.map((v) => (isBlank(v) ? '' : String(v).trim()))
    if (!a || !b) return
    if (a === 'templateId') {
      const expected = (this.schema as { templateId?: string } | null)?.templateId ?? null
      if (expected && b !== expected)
        this.fileError(
          `This workbook was made for the template “${b}”, not “${expected}”. Use a workbook made for “${expected}” (skill-runner templates workbook ${expected}).`,
        )
      return
    }
    if (a === 'version' || a === 'column') return
    if (!/^[A-Z]{1,3}$/.test(a)) return
    this.mappedLetters.set(a, b)
    if (c) this.mappedHeaders.set(headerKey(c), b)
  }

  /** The header row: which column is which field. */
  header(cells: CellValue[]) {
    this.absentRequired = null
    this.headerSeen = true
    const byLabel = new Map<string, SchemaField>()
    for (const f of this.schema?.fields ?? []) {
      const column = this.schema?.columns.find((c) => c.fieldKey === f.key)
      byLabel.set(headerKey(column?.headerLabel || f.label || f.key), f)
      byLabel.set(headerKey(f.label || f.key), f)
    }
    const byKey = new Map([...this.fields.values()].map((f) => [headerKey(f.key), f]))
    const texts = cells.map((cell) => (isBlank(cell) ? null : cellText(cell).trim()))
    if (this.keepCells) this.headers = texts.map((t) => t ?? '')
    if (!this.schema) {
      this.columns = texts.map((text) => (text === null ? null : plainField(text, text, 'generic')))
      return
    }
    // By the text: the header the generator wrote, the template's label, or the field key.
    const matched = texts.map((text) => {
      if (text === null) return null
      const mappedKey = this.mappedHeaders.get(headerKey(text))
      return (
        (mappedKey ? this.fields.get(mappedKey) : undefined) ??
        byLabel.get(headerKey(text)) ??
        byKey.get(headerKey(text)) ??
        null
      )
    })
    // A renamed header keeps the field the mapping gave its column, unless that field is
    // claimed by another header (then columns were inserted or moved, and the letter says
    // nothing).
    const claimed = new Set(matched.filter((f) => f !== null).map((f) => f.key))
    texts.forEach((text, i) => {
      if (text === null || matched[i]) return
      const key = this.mappedLetters.get(columnLetter(i))
      const field = key ? this.fields.get(key) : undefined
      if (field && !claimed.has(field.key)) {
        matched[i] = field
        claimed.add(field.key)
      }
    })
    const used = new Set<string>()
    this.columns = texts.map((text, i) => {
      if (text === null) return null
      const field = matched[i]
      if (!field) {
        this.fileError(
          `Column ${columnLetter(i)} “${text}” is not a field of this template. Remove the column or rename it to one of the template's headers.`,
        )
        return null
      }
      if (used.has(field.key)) {
        this.fileError(
          `Column ${columnLetter(i)} “${text}” repeats the field “${field.label || field.key}”. Keep one column per field.`,
        )
        return null
      }
      used.add(field.key)
      return field
    })
    for (const f of this.fields.values()) {
      if (f.required && f.scope !== 'run' && !used.has(f.key)) {
        this.fileError(
          `The required column “${f.label || f.key}” is missing. Add it (use a fresh template workbook to see every column).`,
        )
      }
    }
  }

  /** One run-scoped value (from the run settings sheet). */
  runValue(labelOrKey: string, value: CellValue) {
    const wanted = headerKey(labelOrKey)
    const field = [...this.fields.values()].find(
      (f) => f.scope === 'run' && (headerKey(f.key) === wanted || headerKey(f.label) === wanted),
    )
    // A value given in the app's form wins over the Run settings sheet.
    if (field && !isBlank(value) && !this.runValues.has(field.key))
      this.runValues.set(field.key, value)
  }

  /** Required row fields with no column in the sheet (found once, after the header). */
  private absentRequired: SchemaField[] | null = null

  /** One data row; `rowNumber` is the spreadsheet's row number. */
  row(cells: CellValue[], rowNumber: number) {
    // Blank rows (and rows with nothing but formatting) above the header are not the header.
    let blank = true
    for (let i = 0; i < cells.length; i += 1)
      if (!isBlank(cells[i])) {
        blank = false
        break
      }
    if (blank) return
    this.noticeReplacement(cells, rowNumber)
    if (!this.headerSeen) {
      this.header(cells)
      return
    }
    this.rowCount += 1
    if (this.onProgress && this.rowCount % 2000 === 0) this.onProgress(this.rowCount)
    const rowIndex = this.rowCount - 1
    // Without keepRows only the checks matter: the values go nowhere.
    const out: InputRow | null = this.keepRows ? {} : null
    const columns = this.columns
    for (let i = 0; i < columns.length; i += 1) {
      const field = columns[i]
      if (!field) continue
      const cell = cells[i] ?? null
      if (field.type === 'generic') {
        if (out && !isBlank(cell)) out[field.key] = cell instanceof Date ? cellText(cell) : cell
        continue
      }
      this.put(out, field, cell, rowNumber, rowIndex)
    }
    if (!this.absentRequired) {
      const present = new Set(columns.map((field) => field?.key))
      this.absentRequired = [...this.fields.values()].filter(
        (field) => !present.has(field.key) && field.scope !== 'run' && field.required,
      )
    }
    for (const field of this.absentRequired)
      this.problem(
        rowIndex,
        rowNumber,
        field,
        cellMessage(rowNumber, field, 'is required but empty'),
      )
    if (out) {
      this.rows.push(out)
      this.rowNumbers.push(rowNumber)
      if (this.keepCells)
        this.cells.push(
          this.columns.map((_, i) => {
            const cell = cells[i] ?? null
            return isBlank(cell) ? '' : cellText(cell)
          }),
        )
    }
  }

  private put(
    out: InputRow | null,
    field: SchemaField,
    cell: CellValue,
    rowNumber: number,
    rowIndex: number,
  ) {
    const checked = checkCell(field, cell)
    if (checked instanceof CellProblem) {
      this.problem(rowIndex, rowNumber, field, cellMessage(rowNumber, field, checked.problem))
      return
    }
    if (checked === undefined) return
    const value =
      field.type === 'file' ? this.checkFileValue(field, checked, rowNumber, rowIndex) : checked
    if (out && value !== undefined) out[field.key] = value
  }

  private checkFileValue(
    field: SchemaField,
    value: WireValue,
    rowNumber: number,
    rowIndex: number,
  ): WireValue | undefined {
    if (Array.isArray(value)) {
      const items = value.map((v) => this.checkFileValue(field, v, rowNumber, rowIndex))
      return items.every((v) => v !== undefined) ? (items as WireValue[]) : undefined
    }
    if (typeof value !== 'object' || !('localPath' in value)) return value
    if (this.fileAssets) return this.uploadedFile(field, value.localPath, rowNumber, rowIndex)
    if (!this.checkFiles) return value
    const path = isAbsolute(value.localPath)
      ? value.localPath
      : resolve(this.baseDir, value.localPath)
    if (!this.fileCache.has(path)) {
      let problem: string | null = null
      try {
        if (!statSync(path).isFile()) problem = `'${value.localPath}' is a folder, not a file`
      } catch {
        problem = `the file '${value.localPath}' was not found (paths are relative to the workbook's folder)`
      }
      this.fileCache.set(path, problem)
    }
    const missing = this.fileCache.get(path)
    if (missing) {
      this.problem(rowIndex, rowNumber, field, cellMessage(rowNumber, field, missing))
      return undefined
    }
    if (!this.kindAccepted(field, path, value.localPath, rowNumber, rowIndex)) return undefined
    return { localPath: path }
  }

  /** A file cell of a workbook a page sent: the upload it names, never a path on this machine. */
  private uploadedFile(
    field: SchemaField,
    text: string,
    rowNumber: number,
    rowIndex: number,
  ): WireValue | undefined {
    const inputAssetId = this.fileAssets?.get(cellPathKey(text))
    if (!inputAssetId) {
      this.problem(
        rowIndex,
        rowNumber,
        field,
        cellMessage(
          rowNumber,
          field,
          `the file '${text}' was not uploaded: drop the folder that holds it and upload the files, then send again`,
        ),
      )
      return undefined
    }
    if (!this.kindAccepted(field, text, text, rowNumber, rowIndex)) return undefined
    return { inputAssetId }
  }

  /** Whether the field takes a file of this kind (by its name); says so in the row when not. */
  private kindAccepted(
    field: SchemaField,
    path: string,
    shown: string,
    rowNumber: number,
    rowIndex: number,
  ): boolean {
    const mime = mimeTypeOf(path)
    if (
      !field.acceptedMimeTypes.length ||
      field.acceptedMimeTypes.some((m) => mimeMatches(m, mime))
    )
      return true
    this.problem(
      rowIndex,
      rowNumber,
      field,
      cellMessage(
        rowNumber,
        field,
        `'${shown}' is ${mime}, but this field takes ${field.acceptedMimeTypes.join(', ')}`,
      ),
    )
    return false
  }

  private problem(rowIndex: number, rowNumber: number, field: SchemaField, error: string) {
    if (this.rowErrors.length >= this.maxRowErrors) {
      this.extraErrors += 1
      return
    }
    this.rowErrors.push({ error, fieldKey: field.key, rowIndex })
    const column = this.columns.indexOf(field)
    this.errorCells.push({ row: rowNumber, column: column < 0 ? null : column + 1 })
  }

  /** Text with U+FFFD lost its letters in a conversion: never sent on silently. */
  private noticeReplacement(cells: CellValue[], rowNumber: number) {
    for (let i = 0; i < cells.length; i += 1) {
      const cell = cells[i]
      if (typeof cell !== 'string' || !cell.includes(REPLACEMENT)) continue
      if (this.replacement) this.replacement.count += 1
      else this.replacement = { row: rowNumber, column: i, count: 1 }
    }
  }

  finish(): ReadResult {
    if (this.replacement) {
      const { row, column, count } = this.replacement
      this.fileErrors.unshift(
        `Row ${row}, column ${columnLetter(column)} holds “\uFFFD”, the sign of letters lost when the file was converted between text encodings${count > 1 ? ` (${count} cells have it)` : ''}. Correct the text (or export the file again as UTF-8 csv or .xlsx) and try again.`,
      )
    }
    if (this.fileErrors.length === 0 && !this.headerSeen) {
      this.fileError(
        'The workbook has no header row. Use the template workbook (skill-runner templates workbook) and fill in its Input sheet.',
      )
    } else if (this.fileErrors.length === 0 && this.rowCount === 0) {
      this.fileError(
        'The workbook has no rows to send. Fill in at least one row under the headers.',
      )
    }
    // Run-scoped values: checked once, then repeated in every row.
    for (const field of this.fields.values()) {
      if (field.scope !== 'run' || this.unreadable) continue
      const columnValue = this.rows.find((r) => r[field.key] !== undefined)?.[field.key]
      if (columnValue !== undefined) {
        for (const row of this.rows) row[field.key] ??= columnValue
        continue
      }
      const raw = this.runValues.get(field.key) ?? null
      const coerced = coerceCell(field, raw)
      if (!coerced.ok) {
        this.fileError(
          `${SHEETS.run}, ${field.label || field.key}: ${coerced.problem} (it applies to the whole run).`,
        )
        continue
      }
      if (coerced.value !== undefined) for (const row of this.rows) row[field.key] = coerced.value
    }
    if (this.extraFileErrors > 0)
      this.fileErrors.push(
        `${this.extraFileErrors} more problems with the file are not listed; fix the ones shown first.`,
      )
    if (this.extraErrors > 0)
      this.fileErrors.push(
        `${this.extraErrors} more problems in the rows are not listed; fix the ones shown first.`,
      )
    return {
      valid: this.fileErrors.length === 0 && this.rowErrors.length === 0,
      fileErrors: this.fileErrors,
      rowErrors: this.rowErrors,
      errorCells: this.errorCells,
      rows: this.rows,
      rowNumbers: this.rowNumbers,
      rowCount: this.rowCount,
      ...(this.notices.length ? { notices: this.notices } : {}),
      ...(this.unreadable ? { unreadable: true } : {}),
      ...(this.keepCells
        ? {
            headers: this.headers,
            columnFields: this.columns.map((f) => (f && f.type !== 'generic' ? f.key : null)),
            cells: this.cells,
          }
        : {}),
    }
  }

  preferLink(columnIndex: number): boolean {
    const type = this.columns[columnIndex]?.type
    return type === 'url' || type === 'file'
  }

  get headerDone() {
    return this.headerSeen
  }
}

function mimeMatches(accepted: string, actual: string): boolean {
  const a = accepted.toLowerCase().trim()
  if (a === '*/*' || a === actual) return true
  if (a.endsWith('/*')) return actual.startsWith(a.slice(0, -1))
  return false
}

export function columnLetter(index: number): string {
  let n = index + 1
  let out = ''
  while (n > 0) {
    const r = (n - 1) % 26
    out = String.fromCharCode(65 + r) + out
    n = Math.floor((n - 1) / 26)
  }
  return out
}

function sameName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase()
}

/** One of the sheets the generator writes besides the input sheet (or the annotated Errors). */
function isOurSheet(name: string): boolean {
  return [SHEETS.run, SHEETS.instructions, SHEETS.samples, SHEETS.mapping, SHEETS.errors].some(
    (ours) => sameName(ours, name),
  )
}

/** Whether a sheet can hold the rows: a visible worksheet, not one of the generator's other sheets. */
function mayBeInput(name: string, state: string | undefined, kind?: string): boolean {
  return state !== 'hidden' && state !== 'veryHidden' && kind !== 'other' && !isOurSheet(name)
}

/** The sheet with the rows: the one named Input, else the first visible sheet not of ours. */
export function chooseInputSheet<T extends { name: string; state?: string; kind?: string }>(
  sheets: T[],
): T | undefined {
  return (
    sheets.find((s) => sameName(s.name, SHEETS.input) && s.kind !== 'other') ??
    sheets.find((s) => mayBeInput(s.name, s.state, s.kind))
  )
}

/**
 * Whether a sheet met while streaming (no look ahead) is the input sheet: the first one named
 * Input or able to hold rows.
 */
export function isStreamedInputSheet(name: string, state: string | undefined, taken: boolean) {
  return !taken && (sameName(name, SHEETS.input) || mayBeInput(name, state))
}

export function sameSheetName(a: string, b: string): boolean {
  return sameName(a, b)
}

/** How a file cell's text is matched to an upload: slashes either way, no leading "./". */
function cellPathKey(text: string): string {
  return text
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
}
