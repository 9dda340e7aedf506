/**
 * What a listing's service is sent. It checks the workbook it receives against the listing's own
 * headers, so a sheet the user mapped to the listing's fields, one whose rows with problems
 * were set aside, or a set-aside workbook dropped again, goes as a copy under the listing's
 * headers holding only the rows to send; any other sheet goes as it is. One implementation for
 * the app (listingSheet below) and the command line (which reads, reports and splits in its own
 * words, then asks copyForListing).
 */
import { mkdir, mkdtemp } from 'node:fs/promises'
import { basename, extname, join } from 'node:path'
import type { InputRow, ListingInputSchema } from '../../../shared/contract'
import type { ApiClient } from '../../service'
import { writeRowsWorkbook, type ReadResult } from '../../workbooks'
import { buyerListing } from '../listings/buyer-listing'
import { skippingInvalidRows, type ReadSheet, type SetAsideFile } from './set-aside'
import type { ParsedWorkbook, ReadWorkbook } from './submission-inputs'

/**
 * Whether the service must be sent a copy: the sheet was mapped, rows were left out (set aside
 * as the sheet was read, or split from it afterwards into `toSend`), or it is a set-aside
 * workbook, whose Problem and Sheet row columns are no listing's.
 */
export function listingCopyNeeded(read: ReadResult, toSend: ParsedWorkbook = read): boolean {
  const mapped = read.mapping !== undefined && read.mapping.source !== 'exact'
  const setAsideBook = read.sourceRows !== undefined
  return mapped || setAsideBook || toSend !== read || (read.setAside?.rows ?? 0) > 0
}

/**
 * Writes `rows` under the listing's own headers, named after the user's `file`, inside `into`
 * (a scratch folder the plan already removes) or a new folder under `<home>/tmp`.
 */
export async function copyForListing(
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
 * The app's listing sheet: read with the mapping in force, its rows with problems set aside when
 * `setAside` is given (skippingInvalidRows), and a copy written when the service needs one.
 * `read` then gives the rows to send with the user's own row numbers, so the plan names rows as
 * the user's sheet does. Null: the user's file goes as it is (nothing mapped or left out, the
 * listing's schema unknown, or problems that nothing set aside, which the plan then shows).
 */
export async function listingSheet(
  home: string,
  client: ApiClient,
  listingId: string,
  sheet: { path: string; scratch?: string | undefined },
  read: ReadSheet,
  setAside?: { about: [string, string][]; onSetAside: (file: SetAsideFile) => void },
): Promise<{ file: string; scratch: string; read: ReadWorkbook } | null> {
  const { schema } = await buyerListing(client, listingId)
  if (!schema) return null
  const toSend = setAside
    ? await skippingInvalidRows(home, read, setAside.about, setAside.onSetAside)(sheet.path, schema)
    : await read(sheet.path, schema)
  if (!listingCopyNeeded(toSend) || !toSend.valid) return null
  const copy = await copyForListing(home, schema, toSend.rows, sheet.path, sheet.scratch)
  return { ...copy, read: async () => toSend }
}
