/**
 * A run's own row times, for the stall rule's "median row time". The service gives no row's
 * finish time (a task has none, and a summary only its run's last change), so they come from what
 * a watcher sees: each time the run's count of finished rows rises, when (the service's
 * updatedAtUnix) and to how many. Rows that finished between two looks share the time between
 * them evenly; that is the finest the interface lets anyone know. Only the last MAX_MARKS rises
 * are kept, so a long run costs little memory and its median follows how its rows go now.
 */
import type { RunSummary } from '../contract'

/** The run had `done` rows finished at `atUnix`. */
export interface RowMark {
  atUnix: number
  done: number
  /**
   * The rows up to this mark finished before anyone looked (a run first seen under way): they
   * count as one row at their mean, so the rises seen after soon outweigh them.
   */
  before?: true
}

/** Oldest first. */
export type RowMarks = readonly RowMark[]

/** No marks: one shared empty list, so "nothing seen" is always the same object. */
export const NO_ROW_MARKS: RowMarks = Object.freeze([])

const MAX_MARKS = 120

type RowsRun = Pick<
  RunSummary,
  'completedTasks' | 'failedTasks' | 'cancelledTasks' | 'startedAtUnix' | 'updatedAtUnix'
>

/** Rows done, whichever way they ended. */
export const finishedRows = (
  run: Pick<RunSummary, 'completedTasks' | 'failedTasks' | 'cancelledTasks'>,
) => run.completedTasks + run.failedTasks + run.cancelledTasks

/**
 * `marks` with what `run` (a newer look at the same run) adds: the same array when nothing rose,
 * so a caller can tell "no news" by identity.
 */
export function markRows(marks: RowMarks, run: RowsRun): RowMarks {
  const done = finishedRows(run)
  const last = marks.at(-1)
  if (!last || done < last.done) {
    // The first look (or a count that went back, which starts again): from the run's start,
    // the rows already finished took the time since then evenly, the best that is known of them.
    if (run.startedAtUnix <= 0) return NO_ROW_MARKS
    const start = { atUnix: run.startedAtUnix, done: 0 }
    return done > 0 ? [start, { atUnix: run.updatedAtUnix, done, before: true }] : [start]
  }
  if (done === last.done) return marks
  return [...marks, { atUnix: run.updatedAtUnix, done }].slice(-MAX_MARKS)
}

/**
 * The median time between two rows finishing (ms), as `marks` tell it; null until one rise has
 * been seen. A rise of n rows counts as n rows of an equal share of its time (rows finished
 * before the first look count once).
 */
export function medianRowMs(marks: RowMarks): number | null {
  const shares: { ms: number; rows: number }[] = []
  for (let i = 1; i < marks.length; i += 1) {
    const rows = marks[i]!.done - marks[i - 1]!.done
    const ms = Math.max(0, marks[i]!.atUnix - marks[i - 1]!.atUnix) * 1000
    if (rows > 0) shares.push({ ms: ms / rows, rows: marks[i]!.before ? 1 : rows })
  }
  const total = shares.reduce((sum, share) => sum + share.rows, 0)
  if (total === 0) return null
  shares.sort((a, b) => a.ms - b.ms)
  // The values at the two middle positions of all rows in order (the same one when odd).
  const at = (position: number) => {
    let seen = 0
    for (const share of shares) {
      seen += share.rows
      if (position < seen) return share.ms
    }
    return shares.at(-1)!.ms
  }
  return (at(Math.floor((total - 1) / 2)) + at(Math.floor(total / 2))) / 2
}
