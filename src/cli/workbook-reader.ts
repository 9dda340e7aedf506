/** How the CLI reads a workbook: in a worker thread, every row kept, local files checked. */
import type { ReadWorkbook } from '../core/flows/spend'
import { parseInputWorkbook, type ReadResult } from '../core/workbooks'
import type { ListingInputSchema } from '../shared/contract'
import type { CommandContext } from './command'

/** `keepRows: false` for checking only: a 1,000,000-row sheet then costs no more than a small one. */
export function readWorkbookWith(
  ctx: CommandContext,
  { keepRows = true }: { keepRows?: boolean } = {},
): (path: string, schema: ListingInputSchema | null) => Promise<ReadResult> {
  return async (path, schema) => {
    const result = await parseInputWorkbook({ path }, schema, {
      keepRows,
      checkFiles: true,
      signal: ctx.signal,
      onProgress: rowsReadProgress(ctx),
    })
    ctx.out.endProgress()
    return result
  }
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

/** The reader `run`, `execute` and `retry-failed` hand to the engine. */
export function workbookReader(ctx: CommandContext): ReadWorkbook {
  return readWorkbookWith(ctx)
}
