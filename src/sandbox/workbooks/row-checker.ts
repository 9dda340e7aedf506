/**
 * What the sandbox does with the rows its readers (csv.ts, xlsx.ts) hand over: find the header
 * row, tell which column is which field of the listing's input schema, check every cell with the
 * shared input-schema rules, and answer the spec's validation result. Written for the service:
 * it keeps no rows, and a file cell is a reference (the service cannot see the buyer's disk).
 */
import type {
  ListingInputSchema,
  RowError,
  SchemaField,
  WorkbookValidation,
} from '../../shared/contract'
import {
  cellMessage,
  CellProblem,
  checkCell,
  coerceCell,
  headerKey,
  isBlank,
  type CellValue,
} from '../../shared/input-schema'
import { MAX_FILE_ERRORS, MAX_ROW_ERRORS } from './file-problem'

/** The sheets an app-made workbook has besides the rows (and the one an annotated copy adds). */
export const SHEET_NAMES = {
  input: 'Input',
  run: 'Run settings',
  mapping: '_fields',
  instructions: 'Instructions',
  samples: 'Samples',
  errors: 'Errors',
}

/** Where a reader's rows go. */
export interface RowSink {
  row(cells: CellValue[], rowNumber: number): void
}

/** "A", "B", ... "Z", "AA" for a 0-based column index. */
export function columnLetters(index: number): string {
  let letters = ''
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters
  return letters
}

/** A header cell as text; a date shows its day (and its time when it has one). */
function headerText(cell: CellValue): string | null {
  if (isBlank(cell)) return null
  if (!(cell instanceof Date)) return String(cell).trim()
  if (Number.isNaN(cell.getTime())) return ''
  const iso = cell.toISOString()
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19)
}

const LOST_LETTER = '\uFFFD'

export class RowChecker implements RowSink {
  private readonly fileErrors: string[] = []
  private fileErrorsLeftOut = 0
  private readonly rowErrors: RowError[] = []
  private rowErrorsLeftOut = 0
  /** The field of each column, once the header row is read (null: no field). */
  private columns: (SchemaField | null)[] | null = null
  /** Required row fields without a column: every row misses them. */
  private missingRequired: SchemaField[] = []
  private rowsRead = 0
  /** From the hidden mapping sheet of an app-made workbook. */
  private readonly fieldByLetter = new Map<string, string>()
  private readonly fieldByHeader = new Map<string, string>()
  /** Run-scoped values: from the Run settings sheet, and the fields a row gave a value for. */
  private readonly runSettings = new Map<string, CellValue>()
  private readonly runFieldsInRows = new Set<string>()
  private lostLetters: { row: number; column: number; cells: number } | null = null
  private readonly fields: Map<string, SchemaField>

  constructor(private readonly schema: ListingInputSchema) {
    this.fields = new Map(schema.fields.map((field) => [field.key, field]))
  }

  get headerRead(): boolean {
    return this.columns !== null
  }

  /** Whether a column wants a cell's link rather than its words (url and file fields). */
  wantsLink(column: number): boolean {
    const type = this.columns?.[column]?.type
    return type === 'url' || type === 'file'
  }

  fileError(message: string): void {
    if (this.fileErrors.length < MAX_FILE_ERRORS) this.fileErrors.push(message)
    else this.fileErrorsLeftOut += 1
  }

  /** A row of the hidden mapping sheet: column letter, field key, header text. */
  mappingRow(cells: CellValue[]): void {
    const [letter, key, header] = cells.map((cell) => (isBlank(cell) ? '' : String(cell).trim()))
    if (!letter || !key || !/^[A-Z]{1,3}$/.test(letter)) return
    this.fieldByLetter.set(letter, key)
    if (header) this.fieldByHeader.set(headerKey(header), key)
  }

  /** A row of the Run settings sheet; the first value given for a field counts. */
  runSetting(labelOrKey: string, value: CellValue): void {
    const wanted = headerKey(labelOrKey)
    const field = this.schema.fields.find(
      (f) => f.scope === 'run' && (headerKey(f.key) === wanted || headerKey(f.label) === wanted),
    )
    if (field && !isBlank(value) && !this.runSettings.has(field.key))
      this.runSettings.set(field.key, value)
  }

  row(cells: CellValue[], rowNumber: number): void {
    if (cells.every((cell) => isBlank(cell))) return
    this.noteLostLetters(cells, rowNumber)
    if (!this.columns) {
      this.readHeader(cells)
      return
    }
    this.rowsRead += 1
    const rowIndex = this.rowsRead - 1
    this.columns.forEach((field, column) => {
      if (!field) return
      const checked = checkCell(field, cells[column] ?? null)
      if (checked instanceof CellProblem) this.rowError(rowIndex, rowNumber, field, checked.problem)
      else if (checked !== undefined && field.scope === 'run') this.runFieldsInRows.add(field.key)
    })
    for (const field of this.missingRequired)
      this.rowError(rowIndex, rowNumber, field, 'is required but empty')
  }

  /** The answer for a file that could not be read at all. */
  unreadable(message: string): WorkbookValidation {
    this.fileError(message)
    return this.answer(false)
  }

  result(): WorkbookValidation {
    return this.answer(true)
  }

  private readHeader(cells: CellValue[]): void {
    const texts = cells.map(headerText)
    const fields = this.matchHeaders(texts)
    const used = new Set<string>()
    this.columns = texts.map((text, i) => {
      const field = fields[i]
      if (text === null) return null
      if (!field) {
        this.fileError(
          `Column ${columnLetters(i)} “${text}” is not a field of this template. Remove the column or rename it to one of the template's headers.`,
        )
        return null
      }
      if (used.has(field.key)) {
        this.fileError(
          `Column ${columnLetters(i)} “${text}” repeats the field “${field.label || field.key}”. Keep one column per field.`,
        )
        return null
      }
      used.add(field.key)
      return field
    })
    this.missingRequired = this.schema.fields.filter(
      (f) => f.required && f.scope !== 'run' && !used.has(f.key),
    )
    for (const field of this.missingRequired)
      this.fileError(
        `The required column “${field.label || field.key}” is missing. Add it (use a fresh template workbook to see every column).`,
      )
  }

  /**
   * The field each header names: by the mapping sheet's header text, the column's header label,
   * the field's label or its key (case, spaces and a required marker do not matter). A header
   * renamed by hand keeps the field the mapping sheet gives its column letter, unless another
   * header already names that field (columns were then moved and the letters mean nothing).
   */
  private matchHeaders(texts: (string | null)[]): (SchemaField | null)[] {
    const byLabel = new Map<string, SchemaField>()
    const byKey = new Map<string, SchemaField>()
    for (const field of this.schema.fields) {
      const column = this.schema.columns.find((c) => c.fieldKey === field.key)
      byLabel.set(headerKey(column?.headerLabel || field.label || field.key), field)
      byLabel.set(headerKey(field.label || field.key), field)
      byKey.set(headerKey(field.key), field)
    }
    const matched = texts.map((text) => {
      if (text === null) return null
      const wanted = headerKey(text)
      const mapped = this.fields.get(this.fieldByHeader.get(wanted) ?? '')
      return mapped ?? byLabel.get(wanted) ?? byKey.get(wanted) ?? null
    })
    const named = new Set(matched.map((field) => field?.key))
    texts.forEach((text, i) => {
      if (text === null || matched[i]) return
      const field = this.fields.get(this.fieldByLetter.get(columnLetters(i)) ?? '')
      if (field && !named.has(field.key)) {
        matched[i] = field
        named.add(field.key)
      }
    })
    return matched
  }

  private rowError(rowIndex: number, rowNumber: number, field: SchemaField, problem: string) {
    if (this.rowErrors.length >= MAX_ROW_ERRORS) {
      this.rowErrorsLeftOut += 1
      return
    }
    this.rowErrors.push({
      error: cellMessage(rowNumber, field, problem),
      fieldKey: field.key,
      rowIndex,
    })
  }

  /** U+FFFD in a cell means letters were lost in a conversion: never passed on silently. */
  private noteLostLetters(cells: CellValue[], rowNumber: number) {
    cells.forEach((cell, column) => {
      if (typeof cell !== 'string' || !cell.includes(LOST_LETTER)) return
      if (this.lostLetters) this.lostLetters.cells += 1
      else this.lostLetters = { row: rowNumber, column, cells: 1 }
    })
  }

  /** Run-scoped fields not given in any row: checked once from the Run settings sheet. */
  private checkRunSettings() {
    for (const field of this.schema.fields) {
      if (field.scope !== 'run' || this.runFieldsInRows.has(field.key)) continue
      const checked = coerceCell(field, this.runSettings.get(field.key) ?? null)
      if (!checked.ok)
        this.fileError(
          `${SHEET_NAMES.run}, ${field.label || field.key}: ${checked.problem} (it applies to the whole run).`,
        )
    }
  }

  private answer(readable: boolean): WorkbookValidation {
    if (this.lostLetters) {
      const { row, column, cells } = this.lostLetters
      this.fileErrors.unshift(
        `Row ${row}, column ${columnLetters(column)} holds “${LOST_LETTER}”, the sign of letters lost when the file was converted between text encodings${cells > 1 ? ` (${cells} cells have it)` : ''}. Correct the text (or export the file again as UTF-8 csv or .xlsx) and try again.`,
      )
    }
    if (this.fileErrors.length === 0 && !this.columns)
      this.fileError(
        'The workbook has no header row. Start from the template workbook and fill in its Input sheet.',
      )
    else if (this.fileErrors.length === 0 && this.rowsRead === 0)
      this.fileError(
        'The workbook has no rows to send. Fill in at least one row under the headers.',
      )
    if (readable) this.checkRunSettings()
    if (this.fileErrorsLeftOut > 0)
      this.fileErrors.push(
        `${this.fileErrorsLeftOut} more problems with the file are not listed; fix the ones shown first.`,
      )
    if (this.rowErrorsLeftOut > 0)
      this.fileErrors.push(
        `${this.rowErrorsLeftOut} more problems in the rows are not listed; fix the ones shown first.`,
      )
    return {
      valid: this.fileErrors.length === 0 && this.rowErrors.length === 0,
      fileErrors: this.fileErrors,
      rowErrors: this.rowErrors,
    }
  }
}
