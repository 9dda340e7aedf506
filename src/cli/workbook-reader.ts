/** How the CLI reads a workbook for a run: every row kept, local files checked. */
import type { ParsedWorkbook } from '../core/execution'
import { readInputWorkbook } from '../core/workbooks'
import type { ListingInputSchema } from '../shared/contract'

export async function readWorkbookForCli(
  path: string,
  schema: ListingInputSchema | null,
): Promise<ParsedWorkbook> {
  const result = await readInputWorkbook({ path }, schema, { keepRows: true, checkFiles: true })
  return {
    valid: result.valid,
    fileErrors: result.fileErrors,
    rowErrors: result.rowErrors,
    rows: result.rows,
    rowNumbers: result.rowNumbers,
  }
}
