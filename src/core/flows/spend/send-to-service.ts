/** The one request that spends: runRows for a template, execute for a listing. */
import type { ExecutionResult, RunRowsAcceptance } from '../../../shared/contract'
import type { Connection } from '../../environments/connection'
import type { Submission } from '../../storage/tables/submissions'

/** One request to the service, carrying the entry's clientRequestId. */
export function sendToService(
  connection: Connection,
  entry: Submission,
  signal: AbortSignal | undefined,
): Promise<RunRowsAcceptance | ExecutionResult> {
  if (entry.targetKind === 'template')
    return connection.client.runRows(
      entry.targetId,
      {
        clientRequestId: entry.clientRequestId,
        rows: entry.rows,
        ...(entry.callbackUrl ? { callbackUrl: entry.callbackUrl } : {}),
      },
      { signal },
    )
  return connection.client.execute(
    entry.targetId,
    {
      clientRequestId: entry.clientRequestId,
      confirm: true,
      inputRows: entry.rows,
      listingVersionId: entry.listingVersionId,
    },
    { signal, timeoutMs: 120_000 },
  )
}
