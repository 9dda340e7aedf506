/**
 * How the CLI reads a workbook: in a worker thread (a small csv on this thread), every row kept,
 * local files checked.
 */
import {
  parseInputWorkbook,
  SMALL_CSV_BYTES,
  type ColumnMap,
  type ReadResult,
} from '../core/workbooks'
import type { ReadSheet } from '../core/flows/spend/set-aside'
import type { CommandContext } from './command'
import { defined } from '../shared/defined'

/** A column mapping to apply, or the remembered ones to choose from. */
interface ColumnOptions {
  columnMap?: ColumnMap
  rememberedMaps?: Record<string, ColumnMap>
  /** Keep each row's cells as typed (rows set aside are written as the user wrote them). */
  keepCells?: boolean
}

/**
 * `keepRows: false` for checking only: a 1,000,000-row sheet then costs no more than a small one.
 * `sheet`: the sheet --sheet names; a read asked to set rows aside (`more`) writes them as it goes. What the reader read past (hidden, total, empty rows, the
 * sheet it chose) is said on stderr.
 */
export function readWorkbookWith(
  ctx: CommandContext,
  {
    keepRows = true,
    sheet,
    columns = {},
  }: { keepRows?: boolean; sheet?: string | undefined; columns?: ColumnOptions } = {},
): ReadSheet {
  return async (path, schema, more = {}) => {
    const result = await parseInputWorkbook({ path }, schema, {
      ...more,
      ...columns,
      keepRows,
      checkFiles: true,
      signal: ctx.signal,
      // No window to freeze here: a small csv is read at once, without starting a worker.
      onThisThreadUpToBytes: SMALL_CSV_BYTES,
      onProgress: rowsReadProgress(ctx),
      ...defined({ sheet }),
    })
    ctx.out.endProgress()
    noteWhatWasRead(ctx, result)
    return result
  }
}

/** The reader's notices on stderr, and how to choose between sheets that fit equally. */
export function noteWhatWasRead(ctx: CommandContext, result: ReadResult): void {
  for (const notice of result.notices ?? []) ctx.out.note(notice)
  if (result.sheetChoices)
    ctx.out.note(
      `choose the sheet with --sheet: ${result.sheetChoices.map((name) => `--sheet ${JSON.stringify(name)}`).join(' or ')}`,
    )
}

/**
 * How many rows a workbook check has read so far, as a progress line: at most one a second, so
 * a huge sheet does not flood a log with lines.
 */
export function rowsReadProgress(ctx: CommandContext): (rows: number) => void {
  let last = Date.now()
  return (rows) => {
    if (Date.now() - last < 1000) return
    last = Date.now()
    ctx.out.progress(`checking the workbook: ${rows.toLocaleString('en-US')} rows read`)
  }
}
