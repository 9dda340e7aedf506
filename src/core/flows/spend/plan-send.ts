/**
 * The one composition of a paid send of a buyer's workbook, for every front door: the sheet read
 * with the mapping the user gave or confirmed before, the rows with problems set aside when
 * asked (only the valid ones are sent), a listing sent a copy under its own headers when it
 * needs one, a fixed set-aside workbook planned as its run's follow-up, then the rows chosen (a
 * pilot, a range) priced and placed in their batch by planSubmission. The Bridge and the command
 * line only turn their inputs into a SendRequest and the plan into their answer. Spends nothing.
 */
import { basename, resolve } from 'node:path'
import { rm } from 'node:fs/promises'
import { targetIdentity } from '../../../shared/run-target'
import type { Connection } from '../../environments/connection'
import { defined } from '../../../shared/defined'
import { isSetAsideWorkbook, setAsideRunOf } from '../../workbooks'
import { mappingReadOptions, rememberGiven, type ColumnMappings } from '../prepare/column-mappings'
import { listingSheet } from './listing-copy'
import type { BatchPlace, Plan, SendChoices, SendWorkbook, SpendServices } from './plan'
import { planSubmission } from './plan-submission'
import { dropSetAside, skippingInvalidRows, type ReadSheet, type SetAsideFile } from './set-aside'
import type { ProgressHooks } from './submission-inputs'

/** What a send of a workbook needs, whichever front door asks: the workbook and the choices. */
export interface SendRequest extends SendWorkbook, SendChoices {
  /** The run whose set-aside rows these are; by default told by the workbook itself. */
  followUpOf?: string | undefined
  /**
   * A batch's own rows read again from its sheet (plan-rest.ts). Rows the batch set aside
   * before are left out again (at `setAside.path`), not offered to fix a second time.
   */
  inBatch?: BatchPlace | undefined
  /** Made on the New run screen: once sent, that screen's draft becomes its run. */
  fromNewRun?: boolean | undefined
}

export type SendServices = SpendServices & {
  home: string
  mappings: Pick<ColumnMappings, 'forTarget' | 'remember'>
}

/**
 * Plans a send of `request.file`, read by `read` (the front door's reader: its thread, its
 * progress, its files). A plan that cannot be confirmed, or that `hooks.signal` stopped, keeps
 * no file: its copies and its workbook to fix are removed (one the user placed stays).
 */
export async function planSend(
  services: SendServices,
  connection: Connection,
  read: ReadSheet,
  request: SendRequest,
  hooks: ProgressHooks = {},
): Promise<Plan> {
  const file = resolve(request.file)
  let scratch = request.scratch
  let setAside: SetAsideFile | undefined
  try {
    const remembered = mappingReadOptions(
      services.mappings,
      connection.historyKey,
      request.target,
      request.mapping,
    )
    const reader = sheetReader(services, connection, read, request, remembered, (aside) => {
      setAside = aside
    })
    const own = await ownListingSheet(services, connection, request, reader, hooks.signal)
    if (own?.copy) scratch = own.copy.scratch
    const followUpOf =
      request.followUpOf ?? (request.inBatch ? null : await setAsideRunOf(file)) ?? undefined
    if (followUpOf)
      hooks.onStep?.(
        `these rows were set aside from run ${followUpOf}: they are sent as its follow-up`,
      )
    const planned = await planSubmission(
      services,
      connection,
      own ? async () => own.parsed : reader,
      {
        ...request,
        ...request.inBatch,
        file: own?.copy?.file ?? file,
        sheetFile: file,
        fileName: request.fileName ?? basename(file),
        scratch,
        followUpOf,
        checkedHere: own ? !own.parsed.valid : undefined,
      },
      hooks,
    )
    // The kept plan itself gains them (the store holds this object until it is confirmed).
    const plan: Plan = Object.assign(
      planned,
      defined({
        fromNewRun: request.fromNewRun || undefined,
        setAside: request.inBatch ? undefined : setAside,
      }),
    )
    if (!plan.id) await dropFiles(scratch, setAside)
    else if (hooks.signal?.aborted) {
      services.plans.drop(plan.id) // its copies go with it
      await dropSetAside(setAside)
    }
    return plan
  } catch (error) {
    await dropFiles(scratch, setAside)
    throw error
  }
}

/**
 * The front door's reader with the request's sheet and mapping (a mapping the user gave that
 * fits is remembered), setting the rows with problems aside when asked.
 */
function sheetReader(
  services: SendServices,
  connection: Connection,
  read: ReadSheet,
  request: SendRequest,
  columns: ReturnType<typeof mappingReadOptions>,
  onSetAside: (file: SetAsideFile) => void,
): ReadSheet {
  const mapped: ReadSheet = async (path, schema, more = {}) => {
    const result = await read(path, schema, {
      ...defined({ sheet: request.sheet }),
      ...columns,
      ...more,
    })
    rememberGiven(services.mappings, connection.historyKey, request.target, result.mapping)
    return result
  }
  if (!request.setAside) return mapped
  const about: [string, string][] = [
    ['Set aside from', request.fileName ?? resolve(request.file)],
    ['Target', JSON.stringify(targetIdentity(request.target))],
  ]
  return skippingInvalidRows(
    services.home,
    mapped,
    { chosen: request.setAside.path, about },
    onSetAside,
  )
}

/**
 * A listing's sheet read here first when the service may need a copy of it: mapped, rows set
 * aside, or a set-aside workbook (whose added columns are no listing's). Null: the user's file
 * goes as it is and is read with the listing's schema as planSubmission finds it.
 */
async function ownListingSheet(
  services: SendServices,
  connection: Connection,
  request: SendRequest,
  read: ReadSheet,
  signal?: AbortSignal,
) {
  const target = request.target
  if (target.kind !== 'listing') return null
  const remembered = services.mappings.forTarget(connection.historyKey, target)
  const copyMayBeNeeded =
    request.mapping !== undefined ||
    request.setAside !== undefined ||
    Object.keys(remembered).length > 0 ||
    (await isSetAsideWorkbook(request.file))
  if (!copyMayBeNeeded) return null
  const sheet = { path: resolve(request.file), scratch: request.scratch }
  return listingSheet(services.home, connection.client, target.listingId, sheet, read, signal)
}

async function dropFiles(scratch: string | undefined, setAside: SetAsideFile | undefined) {
  if (scratch) await rm(scratch, { recursive: true, force: true })
  await dropSetAside(setAside)
}
