/**
 * `execute` with a column mapping (given or remembered), --skip-invalid or a set-aside workbook
 * fixed and sent again: a listing's service checks the workbook it is sent against its own
 * headers, so it is sent a copy under the listing's headers holding the rows the user confirmed
 * (the valid ones with --skip-invalid; without the set-aside workbook's own columns). Without
 * any of these, the user's file goes as it is, exactly as before.
 */
import { basename } from 'node:path'
import { buyerListing } from '../core/flows/listings/buyer-listing'
import type { PlanRequest } from '../core/flows/spend/plan'
import { copyForListing, listingCopyNeeded } from '../core/flows/spend/listing-copy'
import { EngineError } from '../core/errors'
import { isSetAsideWorkbook } from '../core/workbooks'
import { describeValidation } from './actions/validate'
import { stringOption, type CommandContext, type ParsedArgs, type Session } from './command'
import { mappedReader, mappingOption } from './column-mapping'
import { skippingInvalid, type SetAside } from './set-aside'

/** The file a listing's plan is made from: a copy as above, or null for the user's own. */
export async function listingFile(
  ctx: CommandContext,
  session: Session,
  target: PlanRequest['target'],
  args: ParsedArgs,
  setAside: SetAside,
): Promise<{ file: string; fileName: string; scratch: string } | null> {
  if (target.kind !== 'listing') return null
  const { engine, connection } = session
  const given = await mappingOption(args)
  const remembered = engine.mappings.forTarget(connection.historyKey, target)
  const file = args.positionals[0]!
  const plain = !given && !setAside.enabled && Object.keys(remembered).length === 0
  if (plain && !(await isSetAsideWorkbook(file))) return null
  const listing = await buyerListing(connection.client, target.listingId, ctx.signal)
  if (!listing.schema) return null
  const mapped = await mappedReader(
    ctx,
    session,
    target,
    args,
    setAside.enabled,
    stringOption(args, 'sheet'),
  )
  const checked = await skippingInvalid(ctx, mapped, setAside, [
    ['Target', JSON.stringify(target)],
  ])(file, listing.schema)
  // Nothing to change: the user's own file goes, and the service's check speaks for it.
  if (!listingCopyNeeded(checked)) return null
  if (!checked.valid) {
    ctx.out.note(describeValidation(checked))
    throw new EngineError(
      'refused',
      'The workbook has problems (listed above), so nothing was sent.',
      'Fix them in the workbook, or send only the valid rows, then send again.',
    )
  }
  const copy = await copyForListing(engine.home, listing.schema, checked.rows, file)
  return { ...copy, fileName: basename(file) }
}
