/** What the workbook reader found, as the New run screen shows it: columns, problems, file cells. */
import { statSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import type { SchemaField } from '../../../shared/contract'
import type {
  CheckedColumn,
  CheckedProblem,
  FileCellView,
  WorkbookCheckView,
} from '../../../shared/bridge'
import type { TargetSchema } from '../../flows/prepare/target-schema'
import { columnLetter, type ReadResult } from '../../workbooks'

/** File cells listed at most, so a huge sheet cannot flood the screen. */
const MAX_FILE_CELLS = 5000

/** Turns what the reader found into what the screen shows. */
export function describeCheck(input: {
  checkId: string
  environment: string
  fileName: string
  sizeBytes: number
  found: TargetSchema | null
  targetFromWorkbook: boolean
  result: ReadResult
  /** The workbook's folder on this computer (file cells are looked for there); null: unknown. */
  workbookDir: string | null
  now?: number
}): WorkbookCheckView {
  const { found, result } = input
  const fields = new Map((found?.schema.fields ?? []).map((f) => [f.key, f]))
  const headers = result.headers ?? []
  const columnFields = result.columnFields ?? []
  const columns: CheckedColumn[] = headers.map((header, i) => {
    const key = columnFields[i] ?? null
    const field = key ? fields.get(key) : undefined
    return {
      letter: columnLetter(i),
      header,
      fieldKey: key,
      label: field?.label || header,
      type: field?.type ?? '',
    }
  })
  const positions = new Map(result.rowNumbers.map((n, i) => [n, i]))
  const problems: CheckedProblem[] = result.rowErrors.map((error, i) => {
    const cell = result.errorCells[i]
    const rowNumber = cell?.row ?? error.rowIndex + 2
    return {
      message: error.error,
      fieldKey: error.fieldKey,
      rowNumber,
      column: cell?.column ?? null,
      rowPosition: positions.get(rowNumber) ?? null,
    }
  })
  const runFields = [...fields.values()]
    .filter((f) => f.scope === 'run')
    .map((field) => ({ field, value: '' }))
  const fileErrors = [...result.fileErrors]
  if (!found) {
    fileErrors.unshift(
      'This workbook does not say which template it is for. Choose the template (or listing) above, and the workbook is checked against it.',
    )
  }
  return {
    checkId: input.checkId,
    environment: input.environment,
    fileName: input.fileName,
    sizeBytes: input.sizeBytes,
    target: found ? { ...found.target, name: found.name } : null,
    targetFromWorkbook: input.targetFromWorkbook,
    valid: Boolean(found) && result.valid,
    fileErrors,
    problems,
    rowCount: result.rowCount,
    columns,
    runFields,
    fileCells: fileCellsOf(result, columns, fields, input.workbookDir),
    schemaFromCache: found?.fromCache ?? false,
    checkedAtMs: input.now ?? Date.now(),
    ...(result.notices?.length ? { notices: result.notices } : {}),
    ...(result.sheet ? { sheet: result.sheet } : {}),
    ...(result.sheetChoices ? { sheetChoices: result.sheetChoices } : {}),
  }
}

function fileCellsOf(
  result: ReadResult,
  columns: CheckedColumn[],
  fields: Map<string, SchemaField>,
  workbookDir: string | null,
): FileCellView[] {
  const fileColumns = columns
    .map((c, i) => ({ i, field: c.fieldKey ? fields.get(c.fieldKey) : undefined }))
    .filter((c) => c.field?.type === 'file')
  if (fileColumns.length === 0) return []
  const out: FileCellView[] = []
  const cells = result.cells ?? []
  const exists = new Map<string, boolean>()
  for (let r = 0; r < cells.length && out.length < MAX_FILE_CELLS; r += 1) {
    for (const { i, field } of fileColumns) {
      const text = cells[r]?.[i] ?? ''
      const values = field!.multiValue ? text.split(/[;\n\r]+/) : [text]
      for (const raw of values) {
        const value = raw.trim()
        if (!value) continue
        let state: FileCellView['state']
        if (/^https?:\/\//i.test(value)) state = 'url'
        // A page's workbook names files on the page's computer: none is looked for here.
        else if (workbookDir === null) state = 'unchecked'
        else {
          const path = isAbsolute(value) ? value : resolve(workbookDir ?? '/', value)
          if (!exists.has(path)) {
            let ok = false
            try {
              ok = statSync(path).isFile()
            } catch {
              ok = false
            }
            exists.set(path, ok)
          }
          state = workbookDir === null ? 'unchecked' : exists.get(path) ? 'found' : 'missing'
        }
        out.push({ value, rowNumber: result.rowNumbers[r] ?? r + 2, fieldKey: field!.key, state })
      }
    }
  }
  return out
}

export function badCells(view: WorkbookCheckView): Map<number, number[]> {
  const bad = new Map<number, number[]>()
  for (const p of view.problems) {
    if (p.rowPosition === null || p.column === null) continue
    const list = bad.get(p.rowPosition) ?? []
    if (!list.includes(p.column)) list.push(p.column)
    bad.set(p.rowPosition, list)
  }
  return bad
}
