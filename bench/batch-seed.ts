/**
 * A 100,000-row sheet across 3 runs, as the batch benches read it: a pilot of 1,000, the rest
 * with 500 failed rows, and a retry of those 500, each run's outcomes kept as ended.
 */
import type { Db } from '../src/core/storage/db'
import { transaction } from '../src/core/storage/db'
import { BatchesTable } from '../src/core/storage/tables/batches'

export const BATCH_ROWS = 100_000
const PILOT = 1_000
const FAILED = 500
/** The batch's id, and its runs' ids in the order they were sent. */
export const BATCH_ID = 'b1'
export const BATCH_RUNS = ['r1', 'r2', 'r3'] as const

/** Writes the batch, its three sends and their outcomes under `historyKey` of `environment`. */
export function seedBatch(db: Db, historyKey: string, environment: string): void {
  const table = new BatchesTable(db)
  const sheetRows = Array.from({ length: BATCH_ROWS }, (_, i) => i + 2)
  const pilotRows = sheetRows.slice(0, PILOT)
  const restRows = sheetRows.slice(PILOT)
  const failedRows = restRows
    .filter((_, i) => i % Math.floor(restRows.length / FAILED) === 0)
    .slice(0, FAILED)
  const failedSet = new Set(failedRows)
  transaction(db, () => {
    table.insert({
      id: BATCH_ID,
      historyKey,
      targetKind: 'template',
      targetId: 'row-echo',
      workbookSha256: 'sha',
      sheet: 'Export',
      mapping: { Text: 'message' },
      inputFilename: 'catalogue.xlsx',
      sheetRows,
      createdAtMs: 1,
    })
    const insert = db.prepare(
      `INSERT INTO submissions (client_request_id, environment, origin, target_kind, target_id, fingerprint,
         row_count, rows_json, row_numbers_json, state, run_id, batch_id, send_kind, created_at_ms, updated_at_ms)
       VALUES (?, ?, ?, 'template', 'row-echo', ?, ?, '[]', ?, 'accepted', ?, ?, ?, ?, ?)`,
    )
    const sends: [string, string, number[], (n: number) => string][] = [
      ['pilot', BATCH_RUNS[0], pilotRows, () => 's'],
      ['rest', BATCH_RUNS[1], restRows, (n) => (failedSet.has(n) ? 'f' : 's')],
      ['retry', BATCH_RUNS[2], failedRows, () => 's'],
    ]
    sends.forEach(([kind, runId, rows, outcome], i) => {
      insert.run(
        `req-${i}`,
        environment,
        historyKey,
        `fp-${i}`,
        rows.length,
        JSON.stringify(rows),
        runId,
        BATCH_ID,
        kind,
        i,
        i,
      )
      table.putOutcomes(
        historyKey,
        {
          runId,
          outcomes: rows.map(outcome).join(''),
          errors: rows.map((n) => (outcome(n) === 'f' ? 'The message has [[fail]] in it.' : '')),
          previews: rows.map((n) => `Echo of row ${n}`),
          ended: true,
        },
        i,
      )
    })
  })
}
