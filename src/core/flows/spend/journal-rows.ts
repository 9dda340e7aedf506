/**
 * A submission's rows as the journal keeps them (storage's submission-rows.ts): written from the
 * rows to send a few hundred at a time, each as the JSON text it is sent as, with the SHA-256 of
 * those texts; read back for the send (and every resend) as the same texts, checked against that
 * hash first, so one request id never carries other bytes, and rows that are missing or damaged
 * stop the send before anything leaves.
 *
 * This is what lets a sheet's rows go from its spill file (plan-rows.ts) to the service without
 * a part's rows ever being one text or one array: the spill file may go once the plan is sent,
 * and a retry, a redo, a results workbook read the journal's copy.
 */
import type { InputRow } from '../../../shared/contract'
import { EngineError } from '../../errors'
import { sha256Hash } from '../../files/hashing'
import { JsonTexts } from '../../service/bodies'
import { breather } from '../../service/limits'
import type { SubmissionRowsTable } from '../../storage/tables/submission-rows'
import type { SubmissionHead } from '../../storage/tables/submissions'

/** Rows that come a run at a time (a plan's: plan-rows.ts PlanRows). */
export interface RowSource {
  readonly length: number
  chunks(size?: number): AsyncIterable<InputRow[]>
}

/** Rows staged, or checked, at once: small enough to be let go of by a young collection. */
const PAGE_ROWS = 256

/** Rows already in memory, as a RowSource. */
export function rowSourceOf(rows: readonly InputRow[]): RowSource {
  return {
    length: rows.length,
    async *chunks(size = PAGE_ROWS) {
      for (let at = 0; at < rows.length; at += size) yield rows.slice(at, at + size)
    },
  }
}

/** The texts of a submission's rows fed to `hash` as the body's array holds them. */
function feed(hash: ReturnType<typeof sha256Hash>, at: number, texts: readonly string[]) {
  if (texts.length > 0) hash.update(`${at === 0 ? '' : ','}${texts.join(',')}`)
}

/** Stages `rows` under `stage` as the texts they are sent as; answers their SHA-256. */
export async function stageRows(
  table: SubmissionRowsTable,
  stage: string,
  rows: RowSource,
): Promise<string> {
  const hash = sha256Hash()
  let at = 0
  for await (const chunk of rows.chunks(PAGE_ROWS)) {
    const texts = chunk.map((row) => JSON.stringify(row))
    feed(hash, at, texts)
    table.stage(stage, at, texts)
    at += texts.length
  }
  if (at !== rows.length) throw new Error(`${rows.length} rows to journal, ${at} read`)
  return hash.digest('hex')
}

/** The rows of a journaled submission cannot be sent as they were journaled. */
export class RowsNotResendableError extends EngineError {
  constructor(
    entry: Pick<SubmissionHead, 'clientRequestId' | 'state' | 'rowCount'>,
    cause?: unknown,
  ) {
    const sentBefore = entry.state === 'sent'
    super(
      'conflict',
      `Nothing was sent: the ${entry.rowCount} rows kept on this computer for request ${entry.clientRequestId} are missing or damaged, so they cannot be sent again exactly as they were.`,
      sentBefore
        ? 'They may have reached the service before: look in the list of runs for a run made from them before you confirm these rows again, or you may pay for them twice.'
        : 'They were never sent: confirm the same rows again and they go as a new request.',
      { cause },
    )
    this.name = 'RowsNotResendableError'
  }
}

/**
 * What to send for `entry`: the texts its rows were journaled as, read a page at a time each
 * time the body is opened. Checked first, page by page: every row there and the hash the same.
 */
export async function journaledTexts(
  table: SubmissionRowsTable,
  entry: SubmissionHead,
): Promise<JsonTexts> {
  const hash = sha256Hash()
  // 10,000 rows of 2 KB are read and hashed for a second or more: the engine's other work goes on.
  const breathe = breather()
  for (let at = 0; at < entry.rowCount; at += PAGE_ROWS) {
    await breathe()
    const end = Math.min(entry.rowCount, at + PAGE_ROWS)
    let texts: string[]
    try {
      texts = table.texts(entry.id, at, end)
    } catch (error) {
      throw new RowsNotResendableError(entry, error)
    }
    if (texts.length !== end - at) throw new RowsNotResendableError(entry)
    feed(hash, at, texts)
  }
  if (hash.digest('hex') !== entry.rowsSha256) throw new RowsNotResendableError(entry)
  return new JsonTexts(entry.rowCount, (start, end) => table.texts(entry.id, start, end))
}
