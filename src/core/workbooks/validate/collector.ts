/**
 * Checking rows against the template's schema, whatever the file format: every reader hands
 * rows of cells to a Collector, which finds the header row, maps columns to the template's
 * fields (header.ts), coerces and checks every cell (file cells: file-cells.ts), and keeps the
 * errors (bounded) and the rows (optional). Blank rows are skipped but keep their spreadsheet
 * row numbers. Tested without any file.
 */
import { dirname, resolve } from 'node:path'
import type { InputRow, ListingInputSchema, RowError, SchemaField } from '../../../shared/contract'
import {
  cellMessage,
  CellProblem,
  headerKey,
  isBlank,
  type CellValue,
  type WireValue,
} from '../../../shared/input-schema'
import type { WorkbookSource } from '../byte-source'
import { MAX_FILE_ERRORS } from '../limits'
import { cellText, columnLetter } from '../sheets'
import { HeaderMapping, type MappingOutcome } from '../mapping/header-mapping'
import { AsideRows, withoutAside, type AsideSink } from './aside-rows'
import { FileCells } from './file-cells'
import { headerColumns, type MappingSheet } from './header'
import type { ErrorCell, ReadOptions, ReadResult, RowSink, SheetHeader } from './read-result'
import { knownWord, plainGood, plainRule, type PlainRule } from './plain-cells'
import { isBlankText, isTotalRow, RowTally } from './row-shape'
import { WholeColumns } from './whole-columns'
import { KeptRows } from './kept-rows'
import type { SpillWriter } from './row-spill'
import { defined } from '../../../shared/defined'

const REPLACEMENT = '\uFFFD'

/** Maps columns, coerces cells, keeps errors (bounded) and rows (optional). */
export class Collector implements RowSink {
  readonly fileErrors: string[] = []
  readonly notices: string[] = []
  private extraFileErrors = 0
  private unreadable = false
  private replacement: { row: number; column: number; count: number } | null = null
  readonly rowErrors: RowError[] = []
  readonly errorCells: ErrorCell[] = []
  private extraErrors = 0
  private readonly onProgress?: (rowsRead: number) => void
  /** What the hidden mapping sheet says about the columns. */
  private readonly mapping: MappingSheet = { letters: new Map(), headers: new Map() }
  /** The rows kept for sending (in memory, or in a spill file). */
  private readonly kept: KeptRows
  rowCount = 0
  /** column index -> field (or null for an unknown column) */
  private columns: (SchemaField | null)[] = []
  /** Each column's usual good cells (plain-cells.ts), by column index like `columns`. */
  private rules: (PlainRule | null)[] = []
  private headerSeen = false
  private readonly runValues = new Map<string, CellValue>()
  private readonly whole: WholeColumns
  private readonly fields: Map<string, SchemaField>
  private readonly keepRows: boolean
  private readonly maxRowErrors: number
  private readonly files: FileCells
  private readonly keepCells: boolean
  private headers: string[] = []
  /** Hidden, total and empty rows read past below the header. */
  private readonly tally = new RowTally()
  /** A row that looks like a total: sent only if a row follows it. */
  private heldTotal: { cells: CellValue[]; rowNumber: number } | null = null
  /** Which sheet was read, and the others that could have been (set by the xlsx reader). */
  sheetRead: { sheet?: string; sheets?: SheetHeader[]; choices?: string[] } | null = null
  /** Which row is the header and which mapping its columns take (mapping/). */
  private readonly headerMapping: HeaderMapping
  /** With ReadOptions.setAside: the rows with problems, sent to `aside` as they are checked. */
  private readonly aside: AsideRows | null

  constructor(
    private readonly schema: ListingInputSchema | null,
    source: WorkbookSource,
    options: ReadOptions,
    aside?: AsideSink,
    spill?: SpillWriter,
  ) {
    this.aside = aside ? new AsideRows(aside, options.setAside?.path ?? '') : null
    this.fields = new Map((schema?.fields ?? []).map((f) => [f.key, f]))
    this.whole = new WholeColumns(this.fields)
    this.headerMapping = new HeaderMapping(
      schema,
      this.fields,
      options.columnMap,
      options.rememberedMaps,
    )
    this.keepRows = options.keepRows ?? true
    this.files = new FileCells(
      options.checkFiles ?? 'path' in source,
      'path' in source ? dirname(resolve(source.path)) : '',
      options.fileAssets,
      (rowIndex, rowNumber, field, error) => this.problem(rowIndex, rowNumber, field, error),
    )
    this.maxRowErrors = options.maxRowErrors ?? 1000
    this.onProgress = options.onProgress
    this.keepCells = options.keepCells ?? false
    this.kept = new KeptRows(this.fields.values(), this.keepCells, spill ?? null)
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
    this.mapping.letters.set(a, b)
    if (c) this.mapping.headers.set(headerKey(c), b)
  }

  /** The header row: which column is which field. */
  header(cells: CellValue[], rowNumber = 1) {
    this.absentRequired = null
    this.headerSeen = true
    const texts = this.headerMapping.texts(cells)
    const added = this.kept.sourceRows.header(cells)
    if (this.keepCells)
      this.headers = texts.slice(0, this.kept.sourceRows.ownWidth).map((t) => t ?? '')
    const { columns, problems } = this.headerMapping.columns(
      texts,
      headerColumns(texts, this.schema, this.fields, this.mapping),
      rowNumber,
    )
    this.aside?.header(texts, added, columns)
    this.columns = columns
    this.rules = columns.map((field) => (field ? plainRule(field) : null))
    for (const problem of problems) this.fileError(problem)
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

  /** How many of a row's cells name one of the template's fields (0 without a template). */
  headerFit(cells: CellValue[]): number {
    if (!this.schema) return 0
    const texts = cells.map((cell) => (isBlank(cell) ? null : cellText(cell).trim()))
    return headerColumns(texts, this.schema, this.fields, this.mapping).columns.filter(Boolean)
      .length
  }

  /**
   * One row of the sheet; `rowNumber` is the spreadsheet's row number. Below the header, a
   * hidden row is read past, and a total row is held until a row follows it.
   */
  row(cells: CellValue[], rowNumber: number, hidden = false) {
    // Blank rows (and rows with nothing but formatting) are skipped; text that lost letters in
    // a conversion is noticed. One pass over the cells does both (a million cells a sheet).
    let blank = true
    for (let i = 0; i < cells.length; i += 1) {
      const cell = cells[i]
      if (typeof cell === 'string') {
        if (blank && !isBlankText(cell)) blank = false
        if (cell.includes(REPLACEMENT)) this.noticeReplacement(rowNumber, i)
      } else if (blank && cell !== null && cell !== undefined) blank = false
    }
    if (blank) return
    if (!this.headerSeen) {
      // A title or notes may stand above the header: the header stage may look a few rows ahead.
      this.replay(this.headerMapping.offer(cells, rowNumber, hidden))
      return
    }
    this.tally.seen(rowNumber)
    if (hidden) {
      this.tally.hiddenRows.push(rowNumber)
      return
    }
    if (this.heldTotal) this.dataRow(this.heldTotal.cells, this.heldTotal.rowNumber)
    this.heldTotal = null
    if (this.rowCount > 0 && isTotalRow(cells)) this.heldTotal = { cells, rowNumber }
    else this.dataRow(cells, rowNumber)
  }

  private dataRow(cells: CellValue[], rowNumber: number) {
    this.headerMapping.addSample(cells)
    this.rowCount += 1
    if (this.onProgress && this.rowCount % 2000 === 0) this.onProgress(this.rowCount)
    const rowIndex = this.rowCount - 1
    // Without keepRows only the checks matter: the values go nowhere.
    const out: InputRow | null = this.keepRows ? {} : null
    const { columns, rules } = this
    for (let i = 0; i < columns.length; i += 1) {
      const field = columns[i]
      if (!field) continue
      const cell = cells[i] ?? null
      if (field.type === 'generic') {
        if (out && !isBlank(cell)) out[field.key] = cell instanceof Date ? cellText(cell) : cell
        continue
      }
      this.put(out, field, rules[i]!, cell, rowNumber, rowIndex)
    }
    if (!this.absentRequired) {
      const present = new Set(columns.map((field) => field?.key))
      // While a proposed mapping waits for the user, a column it would supply is not missing
      // from every row: the header's own problem says it once.
      this.absentRequired = this.headerMapping.awaitingMapping
        ? []
        : [...this.fields.values()].filter(
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
    const sheetRow = this.kept.sourceRows.of(cells, rowNumber)
    const aside = this.aside?.endRow(rowIndex, rowNumber, sheetRow, cells) ?? false
    if (out) this.kept.keep(out, cells, rowNumber, sheetRow, aside)
  }

  /** The header, then the rows held while it was looked for. */
  private replay(rows: { cells: CellValue[]; rowNumber: number; hidden: boolean }[] | null) {
    if (!rows || rows.length === 0) return
    const [header, ...rest] = rows
    this.header(header!.cells, header!.rowNumber)
    this.tally.header(header!.rowNumber, this.headerMapping.passedOver)
    for (const row of rest) this.row(row.cells, row.rowNumber, row.hidden)
  }

  private put(
    out: InputRow | null,
    field: SchemaField,
    rule: PlainRule,
    cell: CellValue,
    rowNumber: number,
    rowIndex: number,
  ) {
    if (plainGood(rule, cell, out === null)) {
      if (out) out[field.key] = cell as WireValue
      return
    }
    // A yes/no or choice column's usual word: checkCell's answer, looked up.
    const checked = knownWord(rule, cell) ?? this.whole.check(field, cell, rowNumber)
    if (checked instanceof CellProblem) {
      this.problem(rowIndex, rowNumber, field, cellMessage(rowNumber, field, checked.problem))
      return
    }
    if (checked === undefined) return
    const value =
      field.type === 'file' ? this.files.check(field, checked, rowNumber, rowIndex) : checked
    if (value !== undefined) this.whole.see(field, value, rowNumber)
    if (out && value !== undefined) out[field.key] = value
  }

  private problem(rowIndex: number, rowNumber: number, field: SchemaField, error: string) {
    const index = this.columns.indexOf(field)
    const column = index < 0 ? null : index + 1
    this.aside?.problem(error, column)
    if (this.rowErrors.length >= this.maxRowErrors) {
      this.extraErrors += 1
      return
    }
    this.rowErrors.push({ error, fieldKey: field.key, rowIndex })
    this.errorCells.push({ row: rowNumber, column })
  }

  /** Text with U+FFFD lost its letters in a conversion: never sent on silently. */
  private noticeReplacement(rowNumber: number, column: number) {
    if (this.replacement) this.replacement.count += 1
    else this.replacement = { row: rowNumber, column, count: 1 }
  }

  /** The total row held to the end is a total: said, not sent. */
  private settleTotal() {
    const held = this.heldTotal
    this.heldTotal = null
    if (!held || this.unreadable) return
    const label = held.cells.find((cell) => !isBlank(cell))
    this.tally.totalRow = { rowNumber: held.rowNumber, label: String(label).trim() }
  }

  finish(): ReadResult {
    if (!this.headerSeen && !this.unreadable) this.replay(this.headerMapping.flush())
    this.settleTotal()
    if (!this.unreadable) this.notices.push(...this.tally.notices())
    const mapping = this.headerMapping.outcome()
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
    if (!this.unreadable)
      this.kept.settle(this.whole.settle(this.kept.firstValues, this.runValues, this))
    // The rows with problems are set aside when nothing else is wrong and some row is good; then
    // every one of their problems is in the workbook to fix, none left unlisted.
    const aside = this.aside?.indexes ?? []
    const setAside =
      this.fileErrors.length === 0 && aside.length > 0 && aside.length < this.rowCount
    if (this.extraFileErrors > 0)
      this.fileErrors.push(
        `${this.extraFileErrors} more problems with the file are not listed; fix the ones shown first.`,
      )
    if (this.extraErrors > 0 && !setAside)
      this.fileErrors.push(
        `${this.extraErrors} more problems in the rows are not listed; fix the ones shown first.`,
      )
    const result = this.result(mapping)
    return setAside ? withoutAside(result, aside, this.aside!.path, this.aside?.rows ?? []) : result
  }

  private result(mapping: MappingOutcome | undefined): ReadResult {
    return {
      valid: this.fileErrors.length === 0 && this.rowErrors.length === 0,
      fileErrors: this.fileErrors,
      rowErrors: this.rowErrors,
      errorCells: this.errorCells,
      ...this.kept.result(),
      rowCount: this.rowCount,
      ...(this.notices.length ? { notices: this.notices } : {}),
      ...this.shape(),
      ...(mapping ? { mapping } : {}),
      ...(this.unreadable ? { unreadable: true } : {}),
      ...(this.keepCells
        ? {
            headers: this.headers,
            columnFields: this.columns
              .slice(0, this.kept.sourceRows.ownWidth)
              .map((f) => (f && f.type !== 'generic' ? f.key : null)),
            cells: this.kept.cells,
          }
        : {}),
    }
  }

  /** What the reader read past, which sheet it read and its sheet rows, for the result. */
  private shape(): Partial<ReadResult> {
    const read = this.sheetRead
    return {
      ...defined({ sheet: read?.sheet, sheets: read?.sheets, sheetChoices: read?.choices }),
      ...this.tally.result(),
      ...this.kept.sourceRows.result(),
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
