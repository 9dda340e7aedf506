/**
 * Runs tasks in the server process. State lives in SQLite: a task is `pending` until a slot is
 * free, `running` for `taskMs`, then `succeeded` or `failed`; the run's counters, costs and
 * status follow in the same transaction. At most `concurrency` tasks run at once across the
 * server, shared fairly between runs. On start, tasks left `running` by a stopped or crashed
 * process go back to `pending`, so a restart with the same database finishes them.
 */
import { listingInputSchemaSchema, type InputRow } from '../shared/contract'
import type { BlobStore } from './blobs'
import {
  type AssetRow,
  type Db,
  type RunRow,
  type TaskRow,
  count,
  getRow,
  allRows,
  run,
} from './db'
import { newId, unixNow } from './ids'
import {
  fieldAskingToFail,
  runSkill,
  SKILL_NAMES,
  TaskFailure,
  FAIL_MARKER,
  rowAsksToStall,
  STALL_MS,
  type SkillName,
  type SkillOutput,
} from './skills'

/** Text outputs up to this size are sent inline (unless the template serves files only). */
export const INLINE_LIMIT_BYTES = 16 * 1024

export interface SchedulerOptions {
  db: Db
  blobs: BlobStore
  taskMs: number
  concurrency: number
  log: (line: string) => void
  /** Called once a run has ended (all its tasks are done), after the state is stored. */
  onRunFinished: (runId: string) => void
}

interface InFlight {
  runId: string
  timer: NodeJS.Timeout | undefined
  work: Promise<void> | undefined
}

interface PreparedArtifact {
  artifactId: string
  output: SkillOutput
  inlineText: string | null
  blobKey: string | null
  sizeBytes: number
}

export class Scheduler {
  private readonly inFlight = new Map<string, InFlight>()
  private stopped = false

  constructor(private readonly options: SchedulerOptions) {}

  start(): void {
    run(this.options.db, "UPDATE tasks SET status = 'pending' WHERE status = 'running'")
    this.kick()
  }

  /** Fills free slots with pending tasks. Call after new tasks are stored. */
  kick(): void {
    while (!this.stopped && this.inFlight.size < this.options.concurrency) {
      const task = this.pickNext()
      if (!task) return
      this.begin(task)
    }
  }

  /** Stops starting tasks and waits for the ones mid-way; they are resumed on the next start. */
  async stop(): Promise<void> {
    this.stopped = true
    const pending: Promise<void>[] = []
    for (const entry of this.inFlight.values()) {
      if (entry.timer) clearTimeout(entry.timer)
      if (entry.work) pending.push(entry.work)
    }
    await Promise.allSettled(pending)
    this.inFlight.clear()
    run(this.options.db, "UPDATE tasks SET status = 'pending' WHERE status = 'running'")
  }

  /** The first pending task of the unfinished run with the fewest tasks in flight. */
  private pickNext(): TaskRow | undefined {
    const { db } = this.options
    const runs = allRows<{ run_id: string }>(
      db,
      `SELECT r.run_id FROM runs r
       WHERE r.status IN ('queued', 'running')
         AND EXISTS (SELECT 1 FROM tasks t WHERE t.run_id = r.run_id AND t.status = 'pending')
       ORDER BY r.seq`,
    )
    if (runs.length === 0) return undefined
    const busy = new Map<string, number>()
    for (const entry of this.inFlight.values())
      busy.set(entry.runId, (busy.get(entry.runId) ?? 0) + 1)
    let chosen = runs[0]!.run_id
    for (const candidate of runs) {
      if ((busy.get(candidate.run_id) ?? 0) < (busy.get(chosen) ?? 0)) chosen = candidate.run_id
    }
    return getRow<TaskRow>(
      db,
      "SELECT * FROM tasks WHERE run_id = ? AND status = 'pending' ORDER BY row_index LIMIT 1",
      chosen,
    )
  }

  private begin(task: TaskRow): void {
    const { db } = this.options
    const now = unixNow()
    db.transaction(() => {
      run(db, "UPDATE tasks SET status = 'running' WHERE task_id = ?", task.task_id)
      run(
        db,
        `UPDATE runs SET status = 'running', updated_at_unix = ?,
           started_at_unix = CASE WHEN started_at_unix = 0 THEN ? ELSE started_at_unix END
         WHERE run_id = ? AND status IN ('queued', 'running')`,
        now,
        now,
        task.run_id,
      )
    })()
    const entry: InFlight = { runId: task.run_id, timer: undefined, work: undefined }
    this.inFlight.set(task.task_id, entry)
    const duration = taskDuration(task, this.options.taskMs)
    entry.timer = setTimeout(() => {
      entry.timer = undefined
      entry.work = this.finish(task)
        .catch((error: unknown) => {
          const detail = error instanceof Error ? error.message : String(error)
          this.options.log(`task ${task.task_id} could not be stored: ${detail}`)
        })
        .finally(() => {
          this.inFlight.delete(task.task_id)
          this.kick()
        })
    }, duration)
  }

  /** Runs the skill for one task and stores the outcome. */
  private async finish(task: TaskRow): Promise<void> {
    const { db, blobs } = this.options
    const runRow = getRow<RunRow>(db, 'SELECT * FROM runs WHERE run_id = ?', task.run_id)
    if (!runRow) return
    const row = JSON.parse(task.row_json) as InputRow
    let outputs: SkillOutput[] = []
    let error = ''
    const failing = fieldAskingToFail(row)
    if (failing !== undefined) {
      error = `Field "${failing}" contains ${FAIL_MARKER}, so this row failed on purpose. Remove the marker and run the row again.`
    } else if (!(SKILL_NAMES as readonly string[]).includes(runRow.skill)) {
      error = `The sandbox has no skill named "${runRow.skill}".`
    } else {
      try {
        outputs = await runSkill(runRow.skill as SkillName, {
          row,
          rowIndex: task.row_index,
          schema: listingInputSchemaSchema.parse(JSON.parse(runRow.schema_json)),
          asset: (id) =>
            getRow<AssetRow>(
              db,
              'SELECT * FROM input_assets WHERE asset_id = ? AND user_id = ?',
              id,
              runRow.user_id,
            ),
          blobPath: (key) => blobs.pathOf(key),
        })
      } catch (failure) {
        error =
          failure instanceof TaskFailure
            ? failure.message
            : `The ${runRow.skill} skill stopped unexpectedly: ${failure instanceof Error ? failure.message : String(failure)}`
        outputs = []
      }
    }
    if (this.stopped) return
    const prepared: PreparedArtifact[] = []
    for (const output of outputs) {
      const artifactId = newId('art')
      if ('text' in output.content) {
        const bytes = Buffer.from(output.content.text, 'utf8')
        const inline =
          !output.asFile && runRow.artifact_mode === 'inline' && bytes.length <= INLINE_LIMIT_BYTES
        if (!inline) await blobs.write(artifactId, bytes)
        prepared.push({
          artifactId,
          output,
          inlineText: inline ? output.content.text : null,
          blobKey: inline ? null : artifactId,
          sizeBytes: bytes.length,
        })
      } else {
        prepared.push({
          artifactId,
          output,
          inlineText: null,
          blobKey: output.content.blobKey,
          sizeBytes: output.content.sizeBytes,
        })
      }
    }
    if (this.stopped) return
    let finished = false
    db.transaction(() => {
      finished = this.store(runRow, task, error, prepared)
    })()
    if (finished) this.options.onRunFinished(runRow.run_id)
  }

  /** Stores a task's outcome and updates its run; true when that was the run's last task. */
  private store(
    runRow: RunRow,
    task: TaskRow,
    error: string,
    artifacts: PreparedArtifact[],
  ): boolean {
    const { db } = this.options
    const now = unixNow()
    const succeeded = error === ''
    this.storeArtifacts(runRow, task, artifacts, now)
    run(
      db,
      'UPDATE tasks SET status = ?, error_message = ?, artifact_count = ? WHERE task_id = ?',
      succeeded ? 'succeeded' : 'failed',
      error,
      artifacts.length,
      task.task_id,
    )
    const firstError =
      getRow<{ error_message: string }>(
        db,
        "SELECT error_message FROM tasks WHERE run_id = ? AND status = 'failed' ORDER BY row_index LIMIT 1",
        runRow.run_id,
      )?.error_message ?? ''
    run(
      db,
      `UPDATE runs SET
         completed_tasks = completed_tasks + ?,
         failed_tasks = failed_tasks + ?,
         actual_cost_t = (completed_tasks + ?) * task_cost_t,
         actual_execution_cost_t = CASE WHEN listing_id IS NULL THEN NULL
           ELSE (completed_tasks + ?) * task_fixed_fee_t END,
         first_error_message = ?,
         updated_at_unix = ?
       WHERE run_id = ?`,
      succeeded ? 1 : 0,
      succeeded ? 0 : 1,
      succeeded ? 1 : 0,
      succeeded ? 1 : 0,
      firstError,
      now,
      runRow.run_id,
    )
    // Whether any task is left, not how many: counting them all at every task's end grew with
    // the square of the run's size.
    const open = count(
      db,
      `SELECT EXISTS (SELECT 1 FROM tasks WHERE run_id = ? AND status IN ('pending', 'running'))
         AS n`,
      runRow.run_id,
    )
    if (open > 0) return false
    // The run has ended: it succeeded when any task did; the money follows the outcome.
    run(
      db,
      `UPDATE runs SET
         status = CASE WHEN completed_tasks > 0 THEN 'succeeded' ELSE 'failed' END,
         completed_at_unix = ?,
         updated_at_unix = ?,
         final_buyer_payable_t = CASE WHEN listing_id IS NULL THEN NULL ELSE actual_execution_cost_t END,
         transaction_status = CASE WHEN listing_id IS NULL THEN NULL
           WHEN completed_tasks > 0 THEN 'settled' ELSE 'released' END
       WHERE run_id = ?`,
      now,
      now,
      runRow.run_id,
    )
    return true
  }

  private storeArtifacts(
    runRow: RunRow,
    task: TaskRow,
    artifacts: PreparedArtifact[],
    now: number,
  ) {
    const { db } = this.options
    for (const a of artifacts) {
      run(
        db,
        `INSERT INTO artifacts (artifact_id, run_id, task_id, user_id, step_id, port_name, row_index,
           mime_type, filename, inline_text, blob_key, size_bytes, created_at_unix)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        a.artifactId,
        runRow.run_id,
        task.task_id,
        runRow.user_id,
        a.output.stepId,
        a.output.portName,
        task.row_index,
        a.output.mimeType,
        a.output.filename,
        a.inlineText,
        a.blobKey,
        a.sizeBytes,
        now,
      )
    }
  }
}

/** How long a task runs: `taskMs`, or STALL_MS for a row that asks to stall. */
function taskDuration(task: TaskRow, taskMs: number): number {
  return rowAsksToStall(JSON.parse(task.row_json) as InputRow) ? STALL_MS : taskMs
}
