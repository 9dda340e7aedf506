/**
 * The results workbook of a batch of 100,000 rows sent as 10 parts of 10,000, each row's output
 * about 2 KB of text inline (issue 33's second target, this phase alone; big-run-100k.bench.ts
 * is the whole journey and takes half an hour). The history is seeded with the batch, its parts'
 * journal entries and their rows, as `run` leaves them; the service is answered in the engine's
 * process from a generator, each part's detail (about 25 MB) streamed in pieces and never held.
 * The engine then saves every part's outputs and writes the one results workbook
 * (writeResultsWorkbook, as saveResultsWorkbook and `runs results` do), in a process of its own
 * built as the app ships the engine (bench/batch-results-host.ts), its peak RSS read from /proc.
 *
 * Sizes from the environment: BATCH_RESULTS_ROWS (default 100,000), BATCH_RESULTS_PART (10,000).
 * Target: the engine's peak RSS under 300 MB, whatever the rows (issue 33; 1,267 MB before).
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDb, transaction } from '../src/core/storage/db'
import { BatchesTable } from '../src/core/storage/tables/batches'
import { benchRow, BENCH_ORIGIN, partRunId } from './batch-results-host'
import { bundleForBench } from './support'

const ROWS = Number(process.env.BATCH_RESULTS_ROWS ?? 100_000)
const PART = Number(process.env.BATCH_RESULTS_PART ?? 10_000)
const PARTS = Math.ceil(ROWS / PART)
const TARGET_MB = 300
const BEFORE_MB = 1267

/** The batch, its parts journaled and accepted, each part's rows, their outcomes ended. */
function seed(home: string) {
  const db = openDb(join(home, 'history.db'))
  const batches = new BatchesTable(db)
  transaction(db, () =>
    batches.insert({
      id: 'b1',
      historyKey: BENCH_ORIGIN,
      targetKind: 'template',
      targetId: 'row-echo',
      workbookSha256: 'sha',
      sheet: '',
      mapping: {},
      inputFilename: 'big-run.csv',
      sheetRows: Array.from({ length: ROWS }, (_, n) => n + 2),
      createdAtMs: 1,
    }),
  )
  const entry = db.prepare(
    `INSERT INTO submissions (client_request_id, environment, origin, target_kind, target_id, fingerprint,
       input_filename, row_count, rows_json, rows_sha256, row_numbers_json, state, run_id, batch_id, send_kind,
       created_at_ms, updated_at_ms)
     VALUES (?, 'Bench', ?, 'template', 'row-echo', ?, 'big-run.csv', ?, '', 'seeded', ?, 'accepted', ?, 'b1', 'part', ?, ?)`,
  )
  const row = db.prepare(
    'INSERT INTO submission_rows (submission_id, row_index, row_json) VALUES (?, ?, ?)',
  )
  for (let p = 0; p < PARTS; p += 1) {
    const first = p * PART
    const count = Math.min(PART, ROWS - first)
    const numbers = Array.from({ length: count }, (_, i) => first + i + 2)
    transaction(db, () => {
      const id = Number(
        entry.run(
          `req-${p}`,
          BENCH_ORIGIN,
          `fp-${p}`,
          count,
          JSON.stringify(numbers),
          partRunId(p),
          p,
          p,
        ).lastInsertRowid,
      )
      for (let i = 0; i < count; i += 1) row.run(id, i, JSON.stringify(benchRow(first + i)))
      batches.putOutcomes(
        BENCH_ORIGIN,
        { runId: partRunId(p), outcomes: 's'.repeat(count), errors: [], previews: [], ended: true },
        p,
      )
    })
  }
  db.close()
}

const load = () =>
  `${loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')} (1 / 5 / 15 min) on ${cpus().length} cores`

const dir = mkdtempSync(join(tmpdir(), 'skill-runner-bench-batch-results-'))
try {
  const home = join(dir, 'home')
  let started = Date.now()
  seed(home)
  console.log(
    `seeded ${ROWS} rows in ${PARTS} parts in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  )
  const host = await bundleForBench('bench/batch-results-host.ts', 'batch-results-host')
  started = Date.now()
  const child = spawn(process.execPath, [...host, home, join(dir, 'out')], {
    env: { ...process.env, BATCH_RESULTS_ROWS: String(ROWS), BATCH_RESULTS_PART: String(PART) },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let answer = ''
  child.stdout!.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')))
  const code = await new Promise<number | null>((r) => child.once('exit', r))
  if (code !== 0) throw new Error(`the engine's process exited with ${code}: ${answer}`)
  const figures = JSON.parse(answer) as { rows: number; files: number; peakMb: number; mb: number }
  console.log(
    `results workbook of ${figures.rows} rows (${figures.mb.toFixed(0)} MB), ${figures.files} outputs saved, in ${((Date.now() - started) / 1000).toFixed(0)} s; load ${load()}`,
  )
  console.log(
    `${figures.peakMb < TARGET_MB ? 'MET ' : 'MISS'} engine peak RSS writing a batch's results workbook: ${figures.peakMb.toFixed(0)} MB (target: under ${TARGET_MB} MB, issue 33; ${BEFORE_MB} MB before, parts read whole)`,
  )
} finally {
  rmSync(dir, { recursive: true, force: true })
}
