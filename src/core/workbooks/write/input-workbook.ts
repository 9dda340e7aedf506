/**
 * Writes an input workbook for a template's schema: an Input sheet with one column per row
 * field (in `columns` order, required headers marked with *, hints as header notes, dropdowns
 * for enums and booleans, date and text formats, frozen header), a Run settings sheet for
 * run-wide fields, Instructions, Samples, and a hidden sheet mapping columns to field keys and
 * carrying the schema itself (as JSON in cell-sized parts).
 * Written to a temporary file and renamed, so a half-written workbook never appears.
 */
import { rename, rm } from 'node:fs/promises'
import type ExcelJS from 'exceljs'
import { loadExcelJs } from '../load-exceljs'
import type { OfficialTemplateSchema, SchemaColumn, SchemaField } from '../../../shared/contract'
import { columnLetter, SHEETS } from '../sheets'
import { checkWritableFolder } from './streaming-writer'

const DATA_ROWS = 1000

/** exceljs has range-based data validations, missing from its type definitions. */
interface ValidatedSheet {
  dataValidations: { add(range: string, validation: ExcelJS.DataValidation): void }
}
const ID_LIKE = /(^|_|\b)(id|code|zip|postal|phone|sku|ean|iban|number)($|_|\b)/i

function headerOf(schema: OfficialTemplateSchema, field: SchemaField): string {
  const column = schema.columns.find((c) => c.fieldKey === field.key)
  const label = column?.headerLabel || field.label || field.key
  return field.required ? `${label} *` : label
}

function noteOf(field: SchemaField): string {
  const parts = [field.inputHint, field.businessHint].filter(Boolean)
  if (field.type === 'enum' && field.enumValues.length)
    parts.push(`One of: ${field.enumValues.join(', ')}`)
  if (field.multiValue) parts.push('Several values: separate them with ; or line breaks.')
  if (field.type === 'file')
    parts.push('A file path (relative to this workbook or absolute) or a web address.')
  if (field.type === 'date') parts.push('A date, e.g. 2026-03-05.')
  if (field.required) parts.push('Required.')
  return parts.join('\n')
}

/** The fields in `columns` order, then any field no column names. */
function orderedFields(schema: OfficialTemplateSchema): SchemaField[] {
  const fieldsByKey = new Map(schema.fields.map((f) => [f.key, f]))
  const ordered = [...schema.columns]
    .sort((a, b) => a.order - b.order)
    .map((c) => fieldsByKey.get(c.fieldKey))
    .filter((f): f is SchemaField => f !== undefined)
  for (const f of schema.fields) if (!ordered.includes(f)) ordered.push(f)
  return ordered
}

type ListingNames = { listingId: string; listingVersionId: string }

/**
 * The hidden sheet mapping columns to field keys. It goes first in the file so that a streaming
 * reader meets it before the rows; the workbook opens on the Input sheet.
 */
function addMappingSheet(
  workbook: ExcelJS.Workbook,
  schema: OfficialTemplateSchema,
  rowFields: SchemaField[],
  listing: ListingNames | undefined,
) {
  const mapping = workbook.addWorksheet(SHEETS.mapping, { state: 'veryHidden' })
  mapping.addRow(['templateId', schema.templateId])
  mapping.addRow(['version', schema.version])
  if (listing) {
    mapping.addRow(['listingId', listing.listingId])
    mapping.addRow(['listingVersionId', listing.listingVersionId])
  }
  // The schema itself, so that the workbook can still be checked and its cells typed when the
  // service does not show the schema to this user (DESIGN.md's fallback for listings).
  for (const part of schemaParts(schema)) mapping.addRow(['schema', part])
  mapping.addRow(['column', 'fieldKey', 'header'])
  rowFields.forEach((field, i) =>
    mapping.addRow([columnLetter(i), field.key, headerOf(schema, field)]),
  )
  workbook.views = [
    { x: 0, y: 0, width: 20000, height: 12000, firstSheet: 1, activeTab: 1, visibility: 'visible' },
  ]
}

/** One column of the Input sheet: its header (marked, with a note), format and dropdown. */
function inputColumn(
  input: ExcelJS.Worksheet,
  schema: OfficialTemplateSchema,
  field: SchemaField,
  i: number,
) {
  const col = input.getColumn(i + 1)
  const header = headerOf(schema, field)
  col.width = Math.min(50, Math.max(14, header.length + 4, field.type === 'text' ? 40 : 0))
  const cell = input.getCell(1, i + 1)
  cell.value = header
  cell.font = { bold: true }
  cell.fill = {
    type: 'pattern',
    pattern: 'solid',
    fgColor: { argb: field.required ? 'FFFFF2CC' : 'FFEFEFEF' },
  }
  const note = noteOf(field)
  if (note) cell.note = note
  const letter = columnLetter(i)
  const range = `${letter}2:${letter}${DATA_ROWS + 1}`
  if (field.type === 'date') col.numFmt = 'yyyy-mm-dd'
  if (
    (field.type === 'string' && ID_LIKE.test(field.key)) ||
    field.type === 'file' ||
    field.type === 'url' ||
    field.type === 'email'
  )
    col.numFmt = '@'
  const list =
    field.type === 'enum' && !field.multiValue
      ? field.enumValues
      : field.type === 'boolean'
        ? ['yes', 'no']
        : null
  if (list && list.length && list.join(',').length < 250) {
    // One validation range per column (a per-cell rule writes overlapping ranges).
    ;(input as unknown as ValidatedSheet).dataValidations.add(range, {
      type: 'list',
      allowBlank: !field.required,
      formulae: [`"${list.map((v) => v.replace(/"/g, '""')).join(',')}"`],
      showErrorMessage: true,
      errorTitle: field.label || field.key,
      error: `Choose one of: ${list.join(', ')}`,
    })
  }
}

/** The Run settings sheet: one line per run-wide field, its key in a hidden column. */
function addRunSheet(
  workbook: ExcelJS.Workbook,
  schema: OfficialTemplateSchema,
  runFields: SchemaField[],
) {
  const run = workbook.addWorksheet(SHEETS.run)
  run.columns = [
    { header: 'Setting', width: 30 },
    { header: 'Value (applies to the whole run)', width: 50 },
    { header: 'Field key', width: 20 },
  ]
  run.getRow(1).font = { bold: true }
  runFields.forEach((field, i) => {
    const row = run.getRow(i + 2)
    row.getCell(1).value = headerOf(schema, field)
    const note = noteOf(field)
    if (note) row.getCell(1).note = note
    row.getCell(3).value = field.key
  })
  run.getColumn(3).hidden = true
}

function addInstructionsSheet(
  workbook: ExcelJS.Workbook,
  schema: OfficialTemplateSchema,
  ordered: SchemaField[],
  hasRunFields: boolean,
) {
  const instructions = workbook.addWorksheet(SHEETS.instructions)
  instructions.getColumn(1).width = 100
  const lines = [
    `${schema.name} (${schema.templateId}, version ${schema.version || '-'})`,
    schema.description,
    '',
    ...schema.instructions,
    '',
    'Fill in one row per item on the Input sheet. Columns marked * are required.',
    ...(hasRunFields ? ['Settings for the whole run go on the Run settings sheet.'] : []),
    '',
    'Fields:',
    ...ordered.map(
      (f) =>
        `- ${f.label || f.key} (${f.type}${f.multiValue ? ', several values' : ''}${f.required ? ', required' : ''})${f.inputHint ? `: ${f.inputHint}` : ''}`,
    ),
  ]
  lines.forEach((line, i) => (instructions.getCell(i + 1, 1).value = line))
  instructions.getCell(1, 1).font = { bold: true, size: 14 }
}

function addSamplesSheet(
  workbook: ExcelJS.Workbook,
  schema: OfficialTemplateSchema,
  rowFields: SchemaField[],
  input: ExcelJS.Worksheet,
) {
  const samples = workbook.addWorksheet(SHEETS.samples)
  rowFields.forEach((field, i) => {
    samples.getCell(1, i + 1).value = headerOf(schema, field)
    samples.getCell(1, i + 1).font = { bold: true }
    samples.getColumn(i + 1).width = input.getColumn(i + 1).width ?? 14
  })
  schema.sampleRows.forEach((sample, r) => {
    rowFields.forEach((field, i) => {
      const value = (sample.values as Record<string, unknown>)[field.key]
      if (value !== undefined && value !== null) {
        samples.getCell(r + 2, i + 1).value = Array.isArray(value)
          ? value.join('; ')
          : typeof value === 'object'
            ? JSON.stringify(value)
            : (value as string | number | boolean)
      }
    })
  })
}

export async function generateInputWorkbook(
  schema: OfficialTemplateSchema,
  outPath: string,
  /** A workbook for a marketplace listing names it (and its version) in the hidden sheet too. */
  options: { listing?: ListingNames } = {},
): Promise<void> {
  // Loaded when a workbook is made, not when the command line starts.
  const { Workbook } = await loadExcelJs()
  const workbook = new Workbook()
  workbook.creator = 'Skill Runner'
  const ordered = orderedFields(schema)
  const rowFields = ordered.filter((f) => f.scope !== 'run')
  const runFields = ordered.filter((f) => f.scope === 'run')
  addMappingSheet(workbook, schema, rowFields, options.listing)
  const input = workbook.addWorksheet(SHEETS.input, { views: [{ state: 'frozen', ySplit: 1 }] })
  rowFields.forEach((field, i) => inputColumn(input, schema, field, i))
  if (runFields.length) addRunSheet(workbook, schema, runFields)
  addInstructionsSheet(workbook, schema, ordered, runFields.length > 0)
  if (schema.sampleRows.length) addSamplesSheet(workbook, schema, rowFields, input)

  await checkWritableFolder(outPath)
  const temp = `${outPath}.${process.pid}.partial`
  try {
    await workbook.xlsx.writeFile(temp)
    await rename(temp, outPath)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}

/** Characters of schema JSON per hidden cell: well under Excel's 32,767 per cell. */
export const SCHEMA_PART_CHARS = 30_000

/**
 * The schema's columns and fields as compact JSON (defaults left out) cut into cell-sized parts,
 * read back in order by `schemaFromParts`.
 */
export function schemaParts(schema: { columns: SchemaColumn[]; fields: SchemaField[] }): string[] {
  const fields = schema.fields.map((f) => {
    const out: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(f)) {
      if (value === '' || value === false || value === null || value === undefined) continue
      if (Array.isArray(value) && value.length === 0) continue
      if (key === 'scope' && value === 'row') continue
      out[key] = value
    }
    return out
  })
  const json = JSON.stringify({ columns: schema.columns, fields })
  const parts: string[] = []
  for (let i = 0; i < json.length; i += SCHEMA_PART_CHARS)
    parts.push(json.slice(i, i + SCHEMA_PART_CHARS))
  return parts
}
