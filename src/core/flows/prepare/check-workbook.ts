/**
 * Offline validation, the one flow behind the command line's `validate` and the app's New run
 * check: find the schema, then read and check the workbook in a worker.
 */
import { defined } from '../../../shared/defined'
import type { RunTarget } from '../../../shared/run-target'
import { ApiError } from '../../service'
import type { Connection } from '../../environments/connection'
import {
  parseInputWorkbook,
  type ColumnMap,
  type WorkerPool,
  type ReadResult,
} from '../../workbooks'
import { mappingReadOptions, rememberGiven, type ColumnMappings } from './column-mappings'
import type { Schemas } from './schema-cache'
import { listingNamed, targetSchema, workbookTarget, type TargetSchema } from './target-schema'

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

/**
 * Offline validation, the one flow behind the CLI's `validate` and the app's "New run" check:
 * finds the schema (fetched, or the saved copy offline; for a workbook without a target, the one
 * its hidden sheet names), then reads and checks the workbook in a worker. `keepCells` keeps every
 * cell for a grid; without it a million-row file costs no more memory than a small one. The
 * result feeds `annotateWorkbook` for the marked-up copy.
 */
export async function checkWorkbook(
  services: {
    schemas: Pick<Schemas, 'template'>
    mappings?: Pick<ColumnMappings, 'forTarget' | 'remember'>
    /** The engine's worker kept between checks (a later check starts without starting one). */
    workbookWorker?: WorkerPool | undefined
  },
  connection: Connection,
  path: string,
  options: CheckOptions = {},
): Promise<OfflineCheck> {
  // The worker loads while the template is looked for (a small csv the command line reads on
  // its own thread needs none).
  if (!options.onThisThreadUpToBytes)
    services.workbookWorker?.warm(defined({ maxMemoryMb: options.maxMemoryMb || undefined }))
  const fromWorkbook = options.target ? null : await workbookTarget(path)
  const target = options.target ?? fromWorkbook
  const found = target
    ? await targetSchema(services, connection, target, path).catch(async (error: unknown) => {
        // A workbook the command line made for a listing names the listing as its template.
        const asListing =
          fromWorkbook?.kind === 'template' && error instanceof ApiError && error.status === 404
            ? await listingNamed(connection, fromWorkbook.templateId)
            : null
        if (!asListing) throw error
        return targetSchema(services, connection, asListing, path)
      })
    : null
  options.signal?.throwIfAborted()
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
    ...(found
      ? mappingReadOptions(services.mappings, connection.historyKey, target, options.mapping)
      : {}),
  })
  if (found) rememberGiven(services.mappings, connection.historyKey, target, result.mapping)
  return { found, targetFromWorkbook: fromWorkbook !== null, result }
}
