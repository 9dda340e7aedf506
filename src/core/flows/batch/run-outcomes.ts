/**
 * What a run's detail says of each of its rows (its outcome letter, its error, the start of its
 * output), for the batches the run is in: made once for each reading of the run (batches.ts).
 */
import {
  isTerminalStatus,
  type Artifact,
  type RunSummary,
  type RunTask,
} from '../../../shared/contract'
import { breather } from '../../service/limits'
import type { RunOutcomes } from '../../storage/tables/batches'
import { fileMark } from './file-preview'

/** Longest start of a text output kept as a row's preview. */
export const PREVIEW_CHARS = 120

/** The outcome letter of a task's status. */
function letter(status: string | undefined, runEnded: boolean): string {
  if (status === 'succeeded') return 's'
  if (status === 'failed') return 'f'
  if (status === 'cancelled') return 'c'
  return runEnded && status === undefined ? 'c' : 'p'
}

/** A run's summary, tasks and outputs: held whole, or read from the history a page at a time. */
export interface RunParts {
  run: RunSummary
  tasks: Iterable<RunTask>
  /** Gone through twice: text outputs first, then file outputs. */
  artifacts: Iterable<Artifact>
}

/**
 * A run's per-row outcomes, errors and text previews, from its detail: a row's first text output,
 * else its first file output by name (file-preview.ts). Its outputs are gone through once, and
 * the engine's other work gets turns in between (a stored detail of 10,000 rows with 2 KB texts
 * is read from SQLite for a second or more).
 */
export async function outcomesOf(detail: RunParts, rowCount: number): Promise<RunOutcomes> {
  const ended = isTerminalStatus(detail.run.status)
  const status: (string | undefined)[] = new Array<string | undefined>(rowCount)
  const errors: string[] = []
  const texts: string[] = []
  const files: string[] = []
  const breathe = breather()
  for (const task of detail.tasks) {
    const i = task.sourceRowIndex
    await breathe()
    if (i < 0 || i >= rowCount) continue
    status[i] = task.status
    if (task.status === 'failed' && task.errorMessage) errors[i] = task.errorMessage
  }
  for (const artifact of detail.artifacts) {
    const i = artifact.sourceRowIndex
    await breathe()
    if (i < 0 || i >= rowCount || texts[i]) continue
    if (artifact.inlineText) texts[i] = artifact.inlineText.slice(0, PREVIEW_CHARS)
    else if (artifact.accessUrl && !files[i]) files[i] = fileMark(artifact)
  }
  let outcomes = ''
  for (let i = 0; i < rowCount; i += 1) outcomes += letter(status[i], ended)
  return {
    runId: detail.run.runId,
    outcomes,
    errors: Array.from(errors, (e) => e ?? ''),
    previews: Array.from(
      { length: Math.max(texts.length, files.length) },
      (_, i) => texts[i] || files[i] || '',
    ),
    ended,
  }
}
