/**
 * The rows a read kept, as they cross from the worker to its caller: one JSON text instead of an
 * object per row. Copied between threads, 100,000 objects of 10 fields were written field name by
 * field name and rebuilt one by one while the worker still held its own; the text is one string,
 * and JSON is what the rows become on the wire anyway (a request's body, a submission's
 * fingerprint), so nothing a send sees changes. The caller gets its objects back, each with its
 * keys in the reader's order.
 *
 * set-aside.bench.ts (100,000 rows x 10 fields kept to send), peak RSS of one read measured alone
 * on a loaded machine: 320-328 MB with the objects copied, 262-277 MB with the text.
 */
import type { InputRow } from '../../../shared/contract'
import type { ReadResult } from '../validate/read-result'

/** A read's result as the worker posts it: its rows as JSON, `rows` left empty. */
export type PackedRead = ReadResult & { rowsJson: string }

export function packedRead(result: ReadResult): PackedRead {
  return { ...result, rows: [], rowsJson: JSON.stringify(result.rows) }
}

/** The result a worker posted, with its rows as objects again (any other result as it is). */
export function unpackedRead(posted: ReadResult | PackedRead): ReadResult {
  if (!('rowsJson' in posted)) return posted
  const { rowsJson, ...result } = posted
  return { ...result, rows: JSON.parse(rowsJson) as InputRow[] }
}
