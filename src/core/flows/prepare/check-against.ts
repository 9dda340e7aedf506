/**
 * A workbook read and checked against the schema found for it: the half of the offline check
 * that needs no service, shared by checkWorkbook (check-workbook.ts) and the check on a saved
 * schema (saved-check.ts), which must not load the service's client.
 */
import { defined } from '../../../shared/defined'
import type { OfficialTemplateSchema } from '../../../shared/contract'
import type { RunTarget } from '../../../shared/run-target'
import {
  parseInputWorkbook,
  type ColumnMap,
  type WorkerPool,
  type ReadResult,
} from '../../workbooks'
import { mappingReadOptions, rememberGiven, type ColumnMappings } from './column-mappings'
import type { CachedSchema } from './saved-schema'

/** What a workbook is checked against: the schema, a name to show, and where it came from. */
export interface TargetSchema {
  target: RunTarget
  name: string
  /** The schema as a template's (listings get their id as templateId, for the hidden sheet). */
  schema: OfficialTemplateSchema
  fromCache: boolean
  /** When the schema was fetched (a saved copy's age offline); null when not known. */
  fetchedAtMs: number | null
}

/** What one offline check found: the schema it used (null: none known) and what the reader saw. */
export interface OfflineCheck {
  found: TargetSchema | null
  /** The target came from the workbook's hidden sheet, not from the caller. */
  targetFromWorkbook: boolean
  result: ReadResult
}

/**
 * What the user chose for a workbook's check: one bundle, passed down whole from the Bridge's
 * and the command line's requests to the reader.
 */
export interface CheckChoices {
  target?: RunTarget | undefined
  runValues?: Record<string, string> | undefined
  /** The sheet to read, by name (the user chose it); without it the reader chooses. */
  sheet?: string | undefined
  /** The user's column mapping (header -> field key, null: not used); remembered when it fits. */
  mapping?: ColumnMap | undefined
  onProgress?: ((rowsRead: number) => void) | undefined
}

/** A check's choices, and how the front door reads: its cells, its files, its thread. */
export interface CheckOptions extends CheckChoices {
  keepCells?: boolean
  checkFiles?: boolean
  signal?: AbortSignal | undefined
  maxMemoryMb?: number | undefined
  /** A csv this small is read on the calling thread (the command line's; see parseInputWorkbook). */
  onThisThreadUpToBytes?: number | undefined
}

/** What a check reads with: the mappings confirmed before, the engine's worker if it has one. */
export interface CheckServices {
  mappings?: Pick<ColumnMappings, 'forTarget' | 'remember'>
  /** The engine's worker kept between checks (a later check starts without starting one). */
  workbookWorker?: WorkerPool | undefined
}

/** A template's schema as what a workbook is checked against. */
export function templateFound(templateId: string, cached: CachedSchema): TargetSchema {
  return {
    target: { kind: 'template', templateId },
    name: cached.schema.name || templateId,
    schema: cached.schema,
    fromCache: cached.fromCache,
    fetchedAtMs: cached.fetchedAtMs,
  }
}

/**
 * Reads the workbook at `path` and checks it against `found` (none: read only), with the mapping
 * given or the ones remembered for `target`; a mapping given that fits is remembered.
 */
export async function checkAgainst(
  services: CheckServices,
  historyKey: string,
  path: string,
  found: TargetSchema | null,
  target: RunTarget | null,
  options: CheckOptions,
): Promise<ReadResult> {
  const { runValues, sheet, signal, onProgress } = options
  const keepCells = options.keepCells ?? false
  const result = await parseInputWorkbook({ path }, found?.schema ?? null, {
    // The grid's cells come with the rows; a check for the command line keeps neither.
    keepRows: keepCells,
    keepCells,
    checkFiles: options.checkFiles ?? true,
    ...defined({ runValues, sheet, signal, onProgress, pool: services.workbookWorker }),
    ...defined({
      maxMemoryMb: options.maxMemoryMb || undefined,
      onThisThreadUpToBytes: options.onThisThreadUpToBytes || undefined,
    }),
    ...(found ? mappingReadOptions(services.mappings, historyKey, target, options.mapping) : {}),
  })
  if (found) rememberGiven(services.mappings, historyKey, target, result.mapping)
  return result
}
