/**
 * Offline validation, the one flow behind the command line's `validate` and the app's New run
 * check: find the schema, then read and check the workbook in a worker.
 */
import { defined } from '../../../shared/defined'
import { ApiError } from '../../service'
import type { Connection } from '../../environments/connection'
import type { WorkerPool } from '../../workbooks'
import type { ColumnMappings } from './column-mappings'
import { checkAgainst, type CheckOptions, type OfflineCheck } from './check-against'
import type { Schemas } from './schema-cache'
import { listingNamed, targetSchema, workbookTarget } from './target-schema'

export type { CheckChoices, CheckOptions, OfflineCheck } from './check-against'

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
  const result = await checkAgainst(services, connection.historyKey, path, found, target, options)
  return { found, targetFromWorkbook: fromWorkbook !== null, result }
}
