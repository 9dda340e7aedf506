/**
 * Column mappings remembered on this computer: once a user confirms which of their columns
 * feeds which field, a sheet with the same headers dropped for the same template maps itself.
 */
import type { RunTarget } from '../../../shared/run-target'
import type { Db } from '../../storage/db'
import { ColumnMappingsTable } from '../../storage/tables/column-mappings'
import { headersKey, type ColumnMap, type MappingOutcome } from '../../workbooks'

/** The key a target's mappings are kept under (a listing's, whatever its version). */
function targetKey(target: RunTarget): string {
  return target.kind === 'template'
    ? `template:${target.templateId}`
    : `listing:${target.listingId}`
}

export class ColumnMappings {
  private readonly table: ColumnMappingsTable

  constructor(db: Db) {
    this.table = new ColumnMappingsTable(db)
  }

  /** The mappings remembered for a target, by `headersKey()` (for the reader to choose from). */
  forTarget(historyKey: string, target: RunTarget): Record<string, ColumnMap> {
    return this.table.forTarget(historyKey, targetKey(target))
  }

  /** Remembers the mapping confirmed for a sheet with these headers. */
  remember(
    historyKey: string,
    target: RunTarget,
    headers: readonly (string | null)[],
    mapping: ColumnMap,
  ) {
    this.table.put(historyKey, targetKey(target), headersKey(headers), mapping, Date.now())
  }
}

/** What a read of a sheet for `target` is given: the user's mapping, else the remembered ones. */
export function mappingReadOptions(
  mappings: Pick<ColumnMappings, 'forTarget'> | undefined,
  historyKey: string,
  target: RunTarget | null,
  given: ColumnMap | undefined,
): { columnMap?: ColumnMap; rememberedMaps?: Record<string, ColumnMap> } {
  if (given) return { columnMap: given }
  if (!target || !mappings) return {}
  return { rememberedMaps: mappings.forTarget(historyKey, target) }
}

/** A mapping the user gave that fits the sheet is remembered for the next time. */
export function rememberGiven(
  mappings: Pick<ColumnMappings, 'remember'> | undefined,
  historyKey: string,
  target: RunTarget | null,
  outcome: MappingOutcome | undefined,
) {
  if (!mappings || !target || outcome?.source !== 'given' || !outcome.complete) return
  mappings.remember(historyKey, target, outcome.headers, outcome.applied)
}
