/**
 * Views of a batch: one buyer's sheet sent to one target, watched across every run made from
 * it. Verbs: getBatch (the batch a run belongs to, with its counts and runs), getBatchRows (a
 * window of its sheet rows, for a virtualized list), planBatchRows (chosen rows as a plan to
 * confirm through the usual consent).
 */

/**
 * A sheet row's state across the batch's runs: never sent, set aside with problems, or the
 * state of its latest send (pending while a run has it), else of the version kept.
 */
export type BatchRowState = 'not-sent' | 'set-aside' | 'pending' | 'succeeded' | 'failed'

/** How a run of a batch came to be sent. */
export type BatchSendKind =
  'all' | 'pilot' | 'rest' | 'valid' | 'follow-up' | 'retry' | 'redo' | 'chosen' | 'part'

/** Rows of a batch in each state; `sentAgain` counts rows sent more than once. */
export interface BatchCounts {
  rows: number
  notSent: number
  setAside: number
  pending: number
  succeeded: number
  failed: number
  sentAgain: number
}

/** One run of a batch. */
export interface BatchRunView {
  runId: string
  kind: BatchSendKind
  rows: number
  /** When it was sent (ms since 1970). */
  sentAtMs: number
}

export interface BatchView {
  environment: string
  batchId: string
  targetKind: 'template' | 'listing'
  targetId: string
  /** The template's or listing's name when known here, else ''. */
  targetName: string
  fileName: string
  /** The sheet read ('' for a csv or the only sheet). */
  sheet: string
  workbookSha256: string
  counts: BatchCounts
  /** The runs in the order sent, the first one first. */
  runs: BatchRunView[]
  /** The batch in words, the same in the app, the CLI and the results workbook. */
  summary: string
  /** Some runs could not be asked about just now: their rows show what was last seen. */
  stale: boolean
}

/** One sheet row of a batch. */
export interface BatchRowView {
  sheetRow: number
  state: BatchRowState
  /** Times it was sent (0: never; 2 or more: sent again). */
  sends: number
  /** The run of its latest send ('' when never sent). */
  runId: string
  /** The run of the version kept ('' when none succeeded or it was never sent). */
  keptRunId: string
  /** Why it was set aside, or why its latest send failed. */
  problems: string[]
  /** The start of the kept version's output when it was text; a file's name (and first line). */
  preview: string
}

/** Which rows getBatchRows lists. */
export type BatchRowFilter =
  'all' | 'not-sent' | 'set-aside' | 'failed' | 'succeeded' | 'sent-again' | 'pending'

export interface BatchRowsView {
  environment: string
  batchId: string
  filter: BatchRowFilter
  /** Rows matching the filter. */
  total: number
  /** Where this window starts among them. */
  from: number
  rows: BatchRowView[]
}
