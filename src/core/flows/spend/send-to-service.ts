/** The one request that spends: runRows for a template, execute for a listing. */
import type { ExecutionResult, InputRow, RunRowsAcceptance } from '../../../shared/contract'
import type { Connection } from '../../environments/connection'
import type { JsonTexts } from '../../service/bodies'
import type { SubmissionHead } from '../../storage/tables/submissions'
import { defined } from '../../../shared/defined'

/**
 * One request to the service, carrying the entry's clientRequestId and its rows: the texts the
 * journal kept them as (journal-rows.ts), or, for an entry journaled before, the rows read.
 */
export function sendToService(
  connection: Connection,
  entry: SubmissionHead,
  rows: InputRow[] | JsonTexts,
  signal: AbortSignal | undefined,
): Promise<RunRowsAcceptance | ExecutionResult> {
  if (entry.targetKind === 'template')
    return connection.client.runRows(
      entry.targetId,
      {
        clientRequestId: entry.clientRequestId,
        rows,
        ...defined({ callbackUrl: entry.callbackUrl || undefined }),
      },
      { signal },
    )
  return connection.client.execute(
    entry.targetId,
    {
      clientRequestId: entry.clientRequestId,
      confirm: true,
      inputRows: rows,
      listingVersionId: entry.listingVersionId,
    },
    { signal, timeoutMs: 120_000 },
  )
}
