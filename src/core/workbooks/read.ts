/**
 * Reads an input workbook (xlsx or csv) row by row and checks every cell against the template's
 * schema, without holding the workbook in memory: xlsx through exceljs's streaming reader, csv
 * through a small streaming parser (UTF-8 with or without BOM; comma or semicolon).
 *
 * Columns map to fields by the hidden mapping sheet the generator writes (first in the file, so
 * the streaming reader sees it before the Input sheet), else by header label, else by field key
 * (case, spaces and the required marker ignored); unknown columns are file errors. Blank rows are skipped but keep their
 * spreadsheet row numbers. Bad files (not a spreadsheet, encrypted, empty) give one clear file
 * error, never a crash.
 */
import { createReadStream, statSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { dirname, extname, isAbsolute, resolve } from 'node:path'
import { Readable } from 'node:stream'
import ExcelJS from 'exceljs'
import type { InputRow, ListingInputSchema, RowError, SchemaField } from '../../shared/contract'
import {
  cellMessage,
  coerceCell,
  headerKey,
  isBlank,
  plainField,
  type CellValue,
  type WireValue,
} from '../../shared/input-schema'
import { mimeTypeOf } from '../mime'
import { openXlsx, XlsxUnsupported, type XlsxWorkbook } from './xlsx-stream'

export interface ReadOptions {
  /** Keep the rows (for submitting); false for validation only (1,000,000 rows stay cheap). */
  keepRows?: boolean
  /** Check that local files named in file cells exist (false on the server). */
  checkFiles?: boolean
  /** Most row errors listed; the rest are counted. */
  maxRowErrors?: number
  /** Called now and then with the number of data rows read so far. */
  onProgress?: (rowsRead: number) => void
  /** Which xlsx reader: the fast one (default, falls back by itself) or exceljs's (tests). */
  xlsxReader?: 'fast' | 'exceljs'
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
}

export type WorkbookSource = { path: string } | { bytes: Uint8Array; filename: string }

/** Sheet names the generator writes besides the input sheet. */
export const SHEETS = {
  errors: 'Errors',
  input: 'Input',
  run: 'Run settings',
  instructions: 'Instructions',
  samples: 'Samples',
  mapping: '_fields',
}

const ZIP = [0x50, 0x4b, 0x03, 0x04]
const OLE = [0xd0, 0xcf, 0x11, 0xe0]

export async function readInputWorkbook(
  source: WorkbookSource,
  schema: ListingInputSchema | null,
  options: ReadOptions = {},
): Promise<ReadResult> {
  const collector = new Collector(schema, source, options)
  const name = 'path' in source ? source.path : source.filename
  let head: Uint8Array
  try {
    head = await firstBytes(source)
  } catch {
    return collector.fail(
      `The file “${baseName(name)}” cannot be opened. Check that it exists and that you may read it.`,
    )
  }
  if (head.length === 0)
    return collector.fail('The file is empty. Fill in the workbook and save it again.')
  const ext = extname(name).toLowerCase()
  try {
    if (startsWith(head, OLE)) {
      // An OLE compound file: Excel's encrypted workbooks and the old .xls format both are.
      return collector.fail(
        (await isEncryptedPackage(source))
          ? `“${baseName(name)}” is protected with a password to open. Open it in Excel, remove the password (File > Info > Protect Workbook), save, and try again.`
          : `“${baseName(name)}” is in the old Excel 97-2003 (.xls) format. Open it in Excel or LibreOffice, save it as .xlsx, and try again.`,
      )
    }
    if (startsWith(head, ZIP)) {
      if (options.xlsxReader === 'exceljs') await readXlsxWithExceljs(source, collector)
      else await readXlsx(source, collector)
    } else if (ext === '.csv' || ext === '.txt' || ext === '.tsv') {
      await readCsv(source, collector)
    } else {
      return collector.fail(
        `“${baseName(name)}” is not a spreadsheet this app can read. Save it as .xlsx (Excel workbook) or .csv and try again.`,
      )
    }
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error)
    return collector.fail(
      `The workbook could not be read (${detail.slice(0, 160)}). Open it in Excel or LibreOffice, save it as .xlsx, and try again.`,
    )
  }
  return collector.finish()
}

async function firstBytes(source: WorkbookSource): Promise<Uint8Array> {
  if ('bytes' in source) return source.bytes.subarray(0, 8)
  const handle = await open(source.path, 'r')
  try {
    const buffer = Buffer.alloc(8)
    const { bytesRead } = await handle.read(buffer, 0, 8, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

/** Whether an OLE compound file holds an encrypted workbook (its "EncryptionInfo" stream). */
async function isEncryptedPackage(source: WorkbookSource): Promise<boolean> {
  const marker = Buffer.from('EncryptionInfo', 'utf16le')
  if ('bytes' in source) return Buffer.from(source.bytes).includes(marker)
  const handle = await open(source.path, 'r')
  try {
    // The directory of a small compound file sits near its start; 1 MB covers it.
    const buffer = Buffer.alloc(1024 * 1024)
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    return buffer.subarray(0, bytesRead).includes(marker)
  } finally {
    await handle.close()
  }
}

function startsWith(bytes: Uint8Array, magic: number[]) {
  return magic.every((b, i) => bytes[i] === b)
}

function baseName(path: string) {
  return path.split(/[\\/]/).pop() ?? path
}

function streamOf(source: WorkbookSource): Readable {
  return 'path' in source
    ? createReadStream(source.path)
    : Readable.from([Buffer.from(source.bytes)])
}

/** An exceljs cell value as what the user sees; for links in url/file fields, the target. */
function unwrap(value: unknown, preferLink: boolean): CellValue {
  if (value === null || value === undefined) return null
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return value
  if (value instanceof Date) return value
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>
    if (Array.isArray(v.richText))
      return (v.richText as { text?: unknown }[]).map((r) => String(r.text ?? '')).join('')
    if ('hyperlink' in v) {
      const text = unwrap(v.text, false)
      if (preferLink && typeof v.hyperlink === 'string' && /^https?:/i.test(v.hyperlink))
        return v.hyperlink
      return text ?? (typeof v.hyperlink === 'string' ? v.hyperlink : null)
    }
    if ('result' in v) return unwrap(v.result, preferLink)
    if ('formula' in v || 'sharedFormula' in v) return null
    if ('error' in v) return String(v.error)
  }
  return String(value)
}

/** Maps columns, coerces cells, keeps errors (bounded) and rows (optional). */
class Collector {
  readonly fileErrors: string[] = []
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

  constructor(
    private readonly schema: ListingInputSchema | null,
    source: WorkbookSource,
    options: ReadOptions,
  ) {
    this.fields = new Map((schema?.fields ?? []).map((f) => [f.key, f]))
    this.keepRows = options.keepRows ?? true
    this.checkFiles = options.checkFiles ?? 'path' in source
    this.maxRowErrors = options.maxRowErrors ?? 1000
    this.onProgress = options.onProgress
    this.baseDir = 'path' in source ? dirname(resolve(source.path)) : ''
  }

  fail(message: string): ReadResult {
    this.fileErrors.push(message)
    return this.finish()
  }

  /** One row of the hidden mapping sheet: `templateId`/`version` rows, then column rows. */
  mappingRow(cells: CellValue[]) {
    const [a, b, c] = cells.map((v) => (isBlank(v) ? '' : String(v).trim()))
    if (!a || !b) return
    if (a === 'templateId') {
      const expected = (this.schema as { templateId?: string } | null)?.templateId ?? null
      if (expected && b !== expected)
        this.fileErrors.push(
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
    this.headerSeen = true
    const byLabel = new Map<string, SchemaField>()
    for (const f of this.schema?.fields ?? []) {
      const column = this.schema?.columns.find((c) => c.fieldKey === f.key)
      byLabel.set(headerKey(column?.headerLabel || f.label || f.key), f)
      byLabel.set(headerKey(f.label || f.key), f)
    }
    const byKey = new Map([...this.fields.values()].map((f) => [headerKey(f.key), f]))
    const texts = cells.map((cell) =>
      isBlank(cell) ? null : String(cell instanceof Date ? cell.toISOString() : cell).trim(),
    )
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
        this.fileErrors.push(
          `Column ${columnLetter(i)} “${text}” is not a field of this template. Remove the column or rename it to one of the template's headers.`,
        )
        return null
      }
      if (used.has(field.key)) {
        this.fileErrors.push(
          `Column ${columnLetter(i)} “${text}” repeats the field “${field.label || field.key}”. Keep one column per field.`,
        )
        return null
      }
      used.add(field.key)
      return field
    })
    for (const f of this.fields.values()) {
      if (f.required && f.scope !== 'run' && !used.has(f.key)) {
        this.fileErrors.push(
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
    if (field && !isBlank(value)) this.runValues.set(field.key, value)
  }

  /** One data row; `rowNumber` is the spreadsheet's row number. */
  row(cells: CellValue[], rowNumber: number) {
    if (!this.headerSeen) {
      this.header(cells)
      return
    }
    if (cells.every((c) => isBlank(c))) return
    this.rowCount += 1
    if (this.onProgress && this.rowCount % 2000 === 0) this.onProgress(this.rowCount)
    const rowIndex = this.rowCount - 1
    const out: InputRow = {}
    const present = new Set<string>()
    this.columns.forEach((field, i) => {
      if (!field) return
      present.add(field.key)
      const cell = cells[i] ?? null
      if (field.type === 'generic') {
        if (!isBlank(cell))
          out[field.key] = cell instanceof Date ? cell.toISOString().slice(0, 10) : cell
        return
      }
      this.put(out, field, cell, rowNumber, rowIndex)
    })
    for (const field of this.fields.values()) {
      if (present.has(field.key)) continue
      if (field.scope === 'run') continue
      if (field.required)
        this.problem(
          rowIndex,
          rowNumber,
          field,
          cellMessage(rowNumber, field, 'is required but empty'),
        )
    }
    if (this.keepRows) {
      this.rows.push(out)
      this.rowNumbers.push(rowNumber)
    }
  }

  private put(
    out: InputRow,
    field: SchemaField,
    cell: CellValue,
    rowNumber: number,
    rowIndex: number,
  ) {
    const coerced = coerceCell(field, cell)
    if (!coerced.ok) {
      this.problem(rowIndex, rowNumber, field, cellMessage(rowNumber, field, coerced.problem))
      return
    }
    if (coerced.value === undefined) return
    const value =
      field.type === 'file'
        ? this.checkFileValue(field, coerced.value, rowNumber, rowIndex)
        : coerced.value
    if (value !== undefined) out[field.key] = value
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
    const mime = mimeTypeOf(path)
    if (
      field.acceptedMimeTypes.length &&
      !field.acceptedMimeTypes.some((m) => mimeMatches(m, mime))
    ) {
      this.problem(
        rowIndex,
        rowNumber,
        field,
        cellMessage(
          rowNumber,
          field,
          `'${value.localPath}' is ${mime}, but this field takes ${field.acceptedMimeTypes.join(', ')}`,
        ),
      )
      return undefined
    }
    return { localPath: path }
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

  finish(): ReadResult {
    if (this.fileErrors.length === 0 && !this.headerSeen) {
      this.fileErrors.push(
        'The workbook has no header row. Use the template workbook (skill-runner templates workbook) and fill in its Input sheet.',
      )
    } else if (this.fileErrors.length === 0 && this.rowCount === 0) {
      this.fileErrors.push(
        'The workbook has no rows to send. Fill in at least one row under the headers.',
      )
    }
    // Run-scoped values: checked once, then repeated in every row.
    for (const field of this.fields.values()) {
      if (field.scope !== 'run') continue
      const columnValue = this.rows.find((r) => r[field.key] !== undefined)?.[field.key]
      if (columnValue !== undefined) {
        for (const row of this.rows) row[field.key] ??= columnValue
        continue
      }
      const raw = this.runValues.get(field.key) ?? null
      const coerced = coerceCell(field, raw)
      if (!coerced.ok) {
        this.fileErrors.push(
          `${SHEETS.run}, ${field.label || field.key}: ${coerced.problem} (it applies to the whole run).`,
        )
        continue
      }
      if (coerced.value !== undefined) for (const row of this.rows) row[field.key] = coerced.value
    }
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

/** Whether a sheet can hold the rows: visible and not one of the generator's other sheets. */
function mayBeInput(name: string, state: string | undefined): boolean {
  return state !== 'hidden' && state !== 'veryHidden' && !isOurSheet(name)
}

/** The sheet with the rows: the one named Input, else the first visible sheet not of ours. */
export function chooseInputSheet<T extends { name: string; state?: string }>(
  sheets: T[],
): T | undefined {
  return (
    sheets.find((s) => sameName(s.name, SHEETS.input)) ??
    sheets.find((s) => mayBeInput(s.name, s.state))
  )
}

/** The input sheet's name, read from the workbook's directory; null when that cannot be read. */
export async function inputSheetName(path: string): Promise<string | null> {
  try {
    return chooseInputSheet((await openXlsx({ path })).sheets)?.name ?? null
  } catch {
    return null
  }
}

/** exceljs's streaming reader over a workbook, as both fallbacks use it. */
export function exceljsSheets(source: WorkbookSource, styles: 'cache' | 'ignore') {
  return new ExcelJS.stream.xlsx.WorkbookReader(streamOf(source), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'cache',
    styles,
    entries: 'ignore',
  }) as unknown as AsyncIterable<
    AsyncIterable<{ number: number; values: unknown[] }> & { name?: string; state?: string }
  >
}

/**
 * Whether a sheet met while streaming (no look ahead) is the input sheet: the first one named
 * Input or able to hold rows.
 */
export function isStreamedInputSheet(name: string, state: string | undefined, taken: boolean) {
  return !taken && (sameName(name, SHEETS.input) || mayBeInput(name, state))
}

async function readXlsx(source: WorkbookSource, collector: Collector) {
  let book: XlsxWorkbook
  try {
    book = await openXlsx('path' in source ? { path: source.path } : { bytes: source.bytes })
  } catch (error) {
    if (error instanceof XlsxUnsupported) return readXlsxWithExceljs(source, collector)
    throw error
  }
  const named = (name: string) => book.sheets.find((s) => sameName(s.name, name))
  const mapping = named(SHEETS.mapping)
  if (mapping) await book.rows(mapping, (cells) => collector.mappingRow(cells.slice(0, 3)))
  const input = chooseInputSheet(book.sheets)
  const web = (link: string | undefined) => (link && /^https?:/i.test(link) ? link : undefined)
  if (input) {
    await book.rows(input, (cells, rowNumber, links) => {
      // In url and file columns, a linked cell means its link, not the words shown.
      if (links && collector.headerDone)
        for (const [column, link] of links)
          if (collector.preferLink(column) && web(link)) cells[column] = link
      collector.row(cells, rowNumber)
    })
  }
  const run = named(SHEETS.run)
  if (run) {
    await book.rows(run, (cells, rowNumber, links) => {
      if (rowNumber === 1) return
      const [label, value, key] = cells
      collector.runValue(String(key ?? label ?? ''), web(links?.get(1)) ?? value ?? null)
    })
  }
}

/** The general reader, for workbooks the fast one does not handle (see xlsx-stream.ts). */
async function readXlsxWithExceljs(source: WorkbookSource, collector: Collector) {
  let inputTaken = false
  for await (const ws of exceljsSheets(source, 'cache')) {
    const name = (ws.name ?? '').trim().toLowerCase()
    const isInput = isStreamedInputSheet(name, ws.state, inputTaken)
    if (isInput) {
      inputTaken = true
      for await (const row of ws) {
        const values = row.values
        const cells: CellValue[] = []
        for (let i = 1; i < values.length; i += 1)
          cells.push(unwrap(values[i], collector.headerDone && collector.preferLink(i - 1)))
        collector.row(cells, row.number)
      }
    } else if (name === SHEETS.mapping.toLowerCase() && !inputTaken) {
      for await (const row of ws)
        collector.mappingRow(row.values.slice(1, 4).map((v) => unwrap(v, false)))
    } else if (name === SHEETS.run.toLowerCase()) {
      for await (const row of ws) {
        if (row.number === 1) continue
        const label = unwrap(row.values[1], false)
        const key = unwrap(row.values[3], false)
        const value = unwrap(row.values[2], true)
        collector.runValue(String(key ?? label ?? ''), value)
      }
    } else {
      // Other sheets are read past (the streaming reader needs each one consumed).
      for await (const _row of ws) void _row
    }
  }
}

/** Streams a csv file's records as cells (empty fields as null) with their line-based row numbers. */
export async function readCsv(
  source: WorkbookSource,
  collector: { row(cells: CellValue[], rowNumber: number): void },
) {
  const decoder = new TextDecoder('utf-8')
  let delimiter: string | null = null
  let field = ''
  let record: string[] = []
  let quoted = false
  let afterQuote = false
  let rowNumber = 1
  let startedRow = false
  let first = true
  const emit = () => {
    record.push(field)
    collector.row(
      record.map((c) => (c === '' ? null : c)),
      rowNumber,
    )
    rowNumber += 1
    record = []
    field = ''
    startedRow = false
  }
  for await (const chunk of streamOf(source)) {
    let text = decoder.decode(chunk as Buffer, { stream: true })
    if (first) {
      first = false
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
    }
    if (delimiter === null) {
      const firstLine = text.split(/\r?\n/, 1)[0] ?? ''
      delimiter =
        (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0)
          ? ';'
          : firstLine.includes('\t') && !firstLine.includes(',')
            ? '\t'
            : ','
    }
    for (let i = 0; i < text.length; i += 1) {
      const ch = text[i]!
      if (quoted) {
        if (ch === '"') {
          if (text[i + 1] === '"') {
            field += '"'
            i += 1
          } else {
            quoted = false
            afterQuote = true
          }
        } else field += ch
        continue
      }
      if (ch === '"' && field === '' && !afterQuote) {
        quoted = true
        startedRow = true
      } else if (ch === delimiter) {
        record.push(field)
        field = ''
        afterQuote = false
        startedRow = true
      } else if (ch === '\n') {
        emit()
        afterQuote = false
      } else if (ch === '\r') {
        // part of \r\n
      } else {
        field += ch
        startedRow = true
      }
    }
  }
  if (startedRow || field !== '' || record.length > 0) emit()
}
