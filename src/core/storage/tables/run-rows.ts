/**
 * The `run_tasks` and `run_outputs` tables: a run's rows (one task each: its row, status, error
 * and number of outputs) and its outputs, as last read from the service's detail. A detail is
 * stored as it is read, part by part, and read back a window or a page at a time, so a run of
 * 100,000 rows is never held whole, in the engine or in a window.
 *
 * Each look writes only what changed: a task whose status, error or outputs moved, an output new
 * since the last look, or one whose access address was signed anew. An output's inline text is
 * stored as the service sent it, never more than the stream's bound for one output
 * (MAX_ITEM_CHARS, 8 MB of its JSON: service/run-detail-stream.ts refuses a bigger one before it
 * reaches here); a run's rows are kept as long as the history keeps the run.
 */
import * as z from 'zod'
import type { RunRowsFilter } from '../../../shared/bridge'
import type { Artifact, RunSummary, RunTask } from '../../../shared/contract'
import { transaction, type Db } from '../db'
import { selectRow, selectRows } from '../read-row'
import {
  addressRow,
  countRow,
  flattened,
  OUTPUT_COLUMNS,
  outputIdRow,
  outputOf,
  outputPageRow,
  outputRow,
  TASK_COLUMNS,
  taskOf,
  taskRow,
  type OutputId,
} from './run-row-columns'

/** How many rows a stored run has, how many of them failed, and how many outputs. */
export interface StoredRunCounts {
  tasks: number
  failed: number
  outputs: number
}

/** A whole reading of a run's detail stored here: which, when it ended, the run's summary then. */
export interface StoredReading {
  seq: number
  atMs: number
  run: RunSummary
}

export class RunRowsTable {
  /**
   * The last whole reading stored of each run by this engine, by origin and run: another reader
   * of the same run soon after (the batch of the run a page watches) takes the rows stored
   * instead of reading the detail again.
   */
  private readonly readings = new Map<string, StoredReading>()
  private readingsSeen = 0

  constructor(private readonly db: Db) {}

  /** A whole reading of a run's detail was stored just now (stored-detail.ts). */
  noteReading(historyKey: string, runId: string, run: RunSummary) {
    this.readingsSeen += 1
    const reading = { seq: this.readingsSeen, atMs: Date.now(), run }
    this.readings.set(`${historyKey}\u0000${runId}`, reading)
  }

  /** The last whole reading of a run stored by this engine, if any. */
  lastReading(historyKey: string, runId: string): StoredReading | undefined {
    return this.readings.get(`${historyKey}\u0000${runId}`)
  }

  /**
   * Stores tasks of a run read just now; one whose row, status, error or outputs moved is
   * rewritten, the others are left as they are. The batch goes to SQLite as one JSON text, read
   * there by json_each: one statement for the batch, where a statement per task spent most of a
   * look of a 10,000-row run in the driver's calls, each task unchanged.
   */
  putTasks(historyKey: string, runId: string, tasks: readonly RunTask[]) {
    if (tasks.length === 0) return
    const rows = tasks.map((t) => [
      t.taskId,
      t.status,
      t.sourceRowIndex,
      t.artifactCount,
      t.errorMessage,
    ])
    this.db
      .prepare(
        `INSERT INTO run_tasks (origin, run_id, ${TASK_COLUMNS})
         SELECT ?, ?, value->>0, value->>1, value->>2, value->>3, value->>4 FROM json_each(?) WHERE true
         ON CONFLICT(origin, run_id, task_id) DO UPDATE SET status = excluded.status,
           source_row_index = excluded.source_row_index, artifact_count = excluded.artifact_count,
           error_message = excluded.error_message
         WHERE status <> excluded.status OR source_row_index <> excluded.source_row_index
           OR artifact_count <> excluded.artifact_count OR error_message <> excluded.error_message`,
      )
      .run(historyKey, runId, JSON.stringify(rows))
  }

  /**
   * Stores outputs of a run read just now, each at its place in the detail (`firstSeq` for the
   * first); an output stored before keeps its place and content, its address is taken anew. Only
   * the outputs new since the last look go to SQLite whole: an output's inline text (kilobytes
   * each) is never handed over again once stored.
   */
  putOutputs(historyKey: string, runId: string, outputs: readonly Artifact[], firstSeq: number) {
    if (outputs.length === 0) return
    const known = this.addresses(
      historyKey,
      runId,
      outputs.map((a) => a.artifactId),
    )
    const fresh: unknown[][] = []
    const signed: string[][] = []
    outputs.forEach((a, i) => {
      const address = known.get(a.artifactId)
      if (address === undefined)
        fresh.push([
          a.artifactId,
          a.taskId,
          a.stepId,
          a.portName,
          a.sourceRowIndex,
          a.mimeType,
          a.accessUrl,
          a.inlineText,
          a.createdAtUnix,
          firstSeq + i,
        ])
      else if (address !== a.accessUrl) signed.push([a.artifactId, a.accessUrl])
    })
    transaction(this.db, () => {
      if (fresh.length > 0) this.insertOutputs(historyKey, runId, fresh)
      if (signed.length > 0)
        this.db
          .prepare(
            // Materialized, the batch is walked once, each output found by its key: joined
            // to json_each directly, SQLite walked the batch again for every output of the run.
            `WITH j(id, url) AS MATERIALIZED (SELECT value->>0, value->>1 FROM json_each(?))
             UPDATE run_outputs SET access_url = j.url FROM j
             WHERE origin = ? AND run_id = ? AND artifact_id = j.id`,
          )
          .run(JSON.stringify(signed), historyKey, runId)
    })
  }

  /** The access address stored of each of these outputs of a run, by id (none for a new one). */
  private addresses(historyKey: string, runId: string, ids: string[]): Map<string, string> {
    const rows = selectRows(
      this.db,
      addressRow,
      `SELECT artifact_id, access_url FROM run_outputs WHERE origin = ? AND run_id = ?
       AND artifact_id IN (SELECT value FROM json_each(?))`,
      [historyKey, runId, JSON.stringify(ids)],
    )
    return new Map(rows.map((row) => [row.artifact_id, row.access_url]))
  }

  /** New outputs, as rows of their columns then seq; one listed twice keeps its first place. */
  private insertOutputs(historyKey: string, runId: string, rows: unknown[][]) {
    this.db
      .prepare(
        `INSERT INTO run_outputs (origin, run_id, ${OUTPUT_COLUMNS}, seq)
         SELECT ?, ?, value->>0, value->>1, value->>2, value->>3, value->>4, value->>5, value->>6,
           value->>7, value->>8, value->>9 FROM json_each(?) WHERE true
         ON CONFLICT(origin, run_id, artifact_id) DO UPDATE SET access_url = excluded.access_url
         WHERE access_url <> excluded.access_url`,
      )
      .run(historyKey, runId, JSON.stringify(rows))
  }

  counts(historyKey: string, runId: string): StoredRunCounts {
    const count = (sql: string) => selectRow(this.db, countRow, sql, [historyKey, runId])?.n ?? 0
    return {
      tasks: count('SELECT COUNT(*) AS n FROM run_tasks WHERE origin = ? AND run_id = ?'),
      failed: count(
        "SELECT COUNT(*) AS n FROM run_tasks WHERE origin = ? AND run_id = ? AND status = 'failed'",
      ),
      outputs: count('SELECT COUNT(*) AS n FROM run_outputs WHERE origin = ? AND run_id = ?'),
    }
  }

  /** The highest row index among a run's stored tasks (-1 for none). */
  lastRowIndex(historyKey: string, runId: string): number {
    const row = selectRow(
      this.db,
      z.object({ n: z.number().int().nullable() }),
      'SELECT MAX(source_row_index) AS n FROM run_tasks WHERE origin = ? AND run_id = ?',
      [historyKey, runId],
    )
    return row?.n ?? -1
  }

  /**
   * Up to `count` of a run's rows from position `from`: failed rows first, then the others, each
   * in row order (as the run's page lists them); with 'failed', the failed rows alone.
   */
  taskWindow(
    historyKey: string,
    runId: string,
    window: { from: number; count: number; filter: RunRowsFilter; failed: number },
  ): RunTask[] {
    const { from, count, filter, failed } = window
    const out = from < failed ? this.failedTasks(historyKey, runId, from, count) : []
    if (filter === 'failed' || out.length >= count) return out
    const rest = selectRows(
      this.db,
      taskRow,
      `SELECT ${TASK_COLUMNS} FROM run_tasks WHERE origin = ? AND run_id = ? AND status <> 'failed'
       ORDER BY source_row_index, task_id LIMIT ? OFFSET ?`,
      [historyKey, runId, count - out.length, Math.max(0, from - failed)],
    )
    return out.concat(rest.map(taskOf))
  }

  private failedTasks(historyKey: string, runId: string, from: number, count: number): RunTask[] {
    return selectRows(
      this.db,
      taskRow,
      `SELECT ${TASK_COLUMNS} FROM run_tasks WHERE origin = ? AND run_id = ? AND status = 'failed'
       ORDER BY source_row_index, task_id LIMIT ? OFFSET ?`,
      [historyKey, runId, count, from],
    ).map(taskOf)
  }

  /** Up to `count` of a run's outputs from position `from`, in the order the service listed them. */
  outputWindow(historyKey: string, runId: string, from: number, count: number): Artifact[] {
    return selectRows(
      this.db,
      outputRow,
      `SELECT ${OUTPUT_COLUMNS} FROM run_outputs WHERE origin = ? AND run_id = ?
       ORDER BY seq LIMIT ? OFFSET ?`,
      [historyKey, runId, count, from],
    ).map(outputOf)
  }

  /** One stored output of a run, or null. */
  output(historyKey: string, runId: string, artifactId: string): Artifact | null {
    const row = selectRow(
      this.db,
      outputRow,
      `SELECT ${OUTPUT_COLUMNS} FROM run_outputs WHERE origin = ? AND run_id = ? AND artifact_id = ?`,
      [historyKey, runId, artifactId],
    )
    return row ? outputOf(row) : null
  }

  /** A run's tasks of rows `from` (included) to `to` (excluded), in row order. */
  tasksOfRows(historyKey: string, runId: string, from: number, to: number): RunTask[] {
    return selectRows(
      this.db,
      taskRow,
      `SELECT ${TASK_COLUMNS} FROM run_tasks WHERE origin = ? AND run_id = ?
       AND source_row_index >= ? AND source_row_index < ? ORDER BY source_row_index, task_id`,
      [historyKey, runId, from, to],
    ).map(taskOf)
  }

  /**
   * The output ports of a run's outputs in the order they first appear, those of rows `except`
   * left out, and the highest row index among all its outputs (-1 for none).
   */
  outputPorts(historyKey: string, runId: string, except: readonly number[]) {
    const ports = selectRows(
      this.db,
      z.object({ port_name: z.string() }),
      `SELECT port_name, MIN(seq) AS first FROM run_outputs WHERE origin = ? AND run_id = ?
       AND source_row_index NOT IN (SELECT value FROM json_each(?)) GROUP BY port_name ORDER BY first`,
      [historyKey, runId, JSON.stringify(except)],
    )
    const last = selectRow(
      this.db,
      z.object({ n: z.number().int().nullable() }),
      'SELECT MAX(source_row_index) AS n FROM run_outputs WHERE origin = ? AND run_id = ?',
      [historyKey, runId],
    )
    return { ports: ports.map((p) => p.port_name), lastRow: last?.n ?? -1 }
  }

  /**
   * A run's tasks counted by status without reading them, and its last row; the tasks of the
   * `apart` rows are left out of the counts and counted by row instead.
   */
  taskTally(historyKey: string, runId: string, apart: readonly number[]) {
    const where = 'origin = ? AND run_id = ? AND source_row_index'
    const params = [historyKey, runId, JSON.stringify(apart)]
    const byStatus = selectRows(
      this.db,
      z.object({ status: z.string(), n: z.number().int() }),
      `SELECT status, COUNT(*) AS n FROM run_tasks
       WHERE ${where} NOT IN (SELECT value FROM json_each(?)) GROUP BY status`,
      params,
    )
    const apartRows = selectRows(
      this.db,
      z.object({ row: z.number().int(), n: z.number().int() }),
      `SELECT source_row_index AS row, COUNT(*) AS n FROM run_tasks
       WHERE ${where} IN (SELECT value FROM json_each(?)) GROUP BY source_row_index`,
      params,
    )
    const last = selectRow(
      this.db,
      z.object({ n: z.number().int().nullable() }),
      'SELECT MAX(source_row_index) AS n FROM run_tasks WHERE origin = ? AND run_id = ?',
      [historyKey, runId],
    )
    return {
      byStatus: byStatus.map(({ status, n }) => [status, n] as const),
      apart: apartRows.map(({ row, n }) => [row, n] as const),
      lastRow: last?.n ?? -1,
    }
  }

  /**
   * A run's output ids with their rows, in the service's order, a page at a time: no text and
   * nothing else of an output is read (see run_outputs_rows).
   */
  *outputIdPages(historyKey: string, runId: string, pageSize = 2000): Generator<OutputId[]> {
    for (let after = -1; ;) {
      const page = selectRows(
        this.db,
        outputIdRow,
        `SELECT artifact_id, source_row_index, seq FROM run_outputs
         WHERE origin = ? AND run_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
        [historyKey, runId, after, pageSize],
      )
      if (page.length === 0) return
      yield page.map((o) => ({ artifactId: o.artifact_id, sourceRowIndex: o.source_row_index }))
      after = page.at(-1)!.seq
    }
  }

  /** Every task of a run in row order, read a page at a time each time it is gone through. */
  tasksOf(historyKey: string, runId: string): Iterable<RunTask> {
    return flattened(() => this.taskPages(historyKey, runId))
  }

  /**
   * Every output of a run in the service's order, read a page at a time each time it is gone
   * through; with `textUpTo`, each inline text cut to its first that many characters (a preview
   * needs no more, and a run's texts are megabytes).
   */
  outputsOf(historyKey: string, runId: string, textUpTo?: number): Iterable<Artifact> {
    return flattened(() => this.outputPages(historyKey, runId, 500, textUpTo))
  }

  /** A run's tasks in row order, a page of `pageSize` at a time. */
  *taskPages(historyKey: string, runId: string, pageSize = 1000): Generator<RunTask[]> {
    for (let last = -1, lastId = ''; ;) {
      const page = selectRows(
        this.db,
        taskRow,
        `SELECT ${TASK_COLUMNS} FROM run_tasks WHERE origin = ? AND run_id = ?
         AND (source_row_index > ? OR (source_row_index = ? AND task_id > ?))
         ORDER BY source_row_index, task_id LIMIT ?`,
        [historyKey, runId, last, last, lastId, pageSize],
      ).map(taskOf)
      if (page.length === 0) return
      yield page
      last = page.at(-1)!.sourceRowIndex
      lastId = page.at(-1)!.taskId
    }
  }

  /** A run's outputs in the service's order, a page of `pageSize` at a time (see outputsOf). */
  *outputPages(
    historyKey: string,
    runId: string,
    pageSize = 500,
    textUpTo?: number,
  ): Generator<Artifact[]> {
    const columns =
      textUpTo === undefined
        ? OUTPUT_COLUMNS
        : OUTPUT_COLUMNS.replace(
            'inline_text',
            `substr(inline_text, 1, ${Math.max(0, Math.floor(textUpTo))}) AS inline_text`,
          )
    for (let after = -1; ;) {
      const rows = selectRows(
        this.db,
        outputPageRow,
        `SELECT ${columns}, seq FROM run_outputs WHERE origin = ? AND run_id = ? AND seq > ?
         ORDER BY seq LIMIT ?`,
        [historyKey, runId, after, pageSize],
      )
      if (rows.length === 0) return
      yield rows.map(outputOf)
      after = rows.at(-1)!.seq
    }
  }
}
