/**
 * What a listing's service is sent. It checks the workbook it receives against the listing's own
 * headers, so a sheet the user mapped to the listing's fields, one whose rows with problems
 * were set aside, or a set-aside workbook sent again, goes as a copy under the listing's
 * headers holding only the rows to send; any other sheet goes as it is (plan-send.ts asks).
 */
import { mkdir, mkdtemp } from 'node:fs/promises'
import { basename, extname, join } from 'node:path'
import type { InputRow, ListingInputSchema } from '../../../shared/contract'
import type { ApiClient } from '../../service'
import { writeRowsWorkbook, type ReadResult } from '../../workbooks'
import { buyerListing } from '../listings/buyer-listing'
import type { ReadSheet } from './set-aside'

/**
 * Whether the service must be sent a copy: the sheet was mapped, rows were left out (set aside
 * as the sheet was read), or it is a set-aside workbook, whose Problem and Sheet row columns
 * are no listing's.
 */
function listingCopyNeeded(read: ReadResult): boolean {
  const mapped = read.mapping !== undefined && read.mapping.source !== 'exact'
  const setAsideBook = read.sourceRows !== undefined
  return mapped || setAsideBook || (read.setAside?.rows ?? 0) > 0
}

/**
 * Writes `rows` under the listing's own headers, named after the user's `file`, inside `into`
 * (a scratch folder the plan already removes) or a new folder under `<home>/tmp`.
 */
async function copyForListing(
  home: string,
  schema: ListingInputSchema,
  rows: InputRow[],
  file: string,
  into?: string,
): Promise<{ file: string; scratch: string }> {
  let scratch = into
  if (!scratch) {
    await mkdir(join(home, 'tmp'), { recursive: true })
    scratch = await mkdtemp(join(home, 'tmp', 'listing-'))
  }
  // A folder of its own: the user's file may be in `into` under the very same name.
  const folder = await mkdtemp(join(scratch, 'listing-'))
  const copy = join(folder, `${basename(file, extname(file))}.xlsx`)
  await writeRowsWorkbook(schema, rows, copy)
  return { file: copy, scratch }
}

/**
 * A listing's sheet read against the listing's schema with the mapping in force (its rows with
 * problems set aside when `read` does that), and the copy the service is sent when it needs
 * one (null: the user's file goes as it is). The rows read keep the user's own row numbers, so
 * the plan names rows as the user's sheet does. Null as a whole: the listing's schema is not
 * known, and the user's file goes as it is, for the service's own check.
 */
export async function listingSheet(
  home: string,
  client: ApiClient,
  listingId: string,
  sheet: { path: string; scratch?: string | undefined },
  read: ReadSheet,
  signal?: AbortSignal,
): Promise<{ parsed: ReadResult; copy: { file: string; scratch: string } | null } | null> {
  const { schema } = await buyerListing(client, listingId, signal)
  if (!schema) return null
  const parsed = await read(sheet.path, schema)
  if (!parsed.valid || !listingCopyNeeded(parsed)) return { parsed, copy: null }
  return {
    parsed,
    copy: await copyForListing(home, schema, parsed.rows, sheet.path, sheet.scratch),
  }
}
