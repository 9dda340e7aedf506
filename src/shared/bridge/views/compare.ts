/** Two runs side by side (Compare runs): rows matched by their inputs, outputs compared. */

export type CompareWordPart = { op: 'same' | 'removed' | 'added'; text: string }

export type CompareFieldDiff = {
  path: string
  a: string | null
  b: string | null
  state: 'same' | 'changed' | 'removed' | 'added'
}

/** One output of one row on one side. */
export interface CompareOutputSide {
  artifactId: string
  mimeType: string
  /** Bytes, when the service or the saved copy said; null when not known. */
  sizeBytes: number | null
  /** The first part of a text or JSON output ('' for other files). */
  preview: string
  /** The text was longer than what was read; the comparison covers the part read. */
  truncated: boolean
}

/** One output port of a matched row, compared. */
export interface CompareOutput {
  portName: string
  kind: 'text' | 'json' | 'file'
  same: boolean
  a: CompareOutputSide | null
  b: CompareOutputSide | null
  /** For text: the word diff from A to B. */
  words: CompareWordPart[]
  /** For JSON: every field, changed or not. */
  fields: CompareFieldDiff[]
}

/** One row on one side. */
export interface CompareRowSide {
  runId: string
  /** 0-based position in its run (the task's sourceRowIndex). */
  index: number
  /** "Row 6" or "Submitted row 5". */
  label: string
  status: string
  error: string
  /** The row's share of what the run cost (0 for a row that did not succeed); null when unknown. */
  costT: number | null
  /** Seconds from the run's start to the row's last output; null without outputs. */
  readyAfterSeconds: number | null
}

export interface CompareRow {
  a: CompareRowSide | null
  b: CompareRowSide | null
  /** How the two were found to go together; 'alone' when the row is in one run only. */
  matchedBy: 'inputs' | 'position' | 'alone'
  /** The row's input values when this computer knows them. */
  inputs: Record<string, unknown> | null
  differs: boolean
  /** Succeeded in one run and not in the other. */
  failedInOne: boolean
  outputs: CompareOutput[]
}

export interface CompareRunSide {
  runId: string
  name: string
  status: string
  totalTasks: number
  costT: number
  /** Sent from this computer: its rows' inputs are known, so rows can be matched by them. */
  inputsKnown: boolean
}

export interface ComparisonView {
  environment: string
  unitLabel: string
  a: CompareRunSide
  b: CompareRunSide
  rows: CompareRow[]
  differing: number
  /** Outputs not read for the comparison (beyond what is read at once): compared by name. */
  notRead: number
  /** The rows' input fields named as the buyer's sheet had them (field key -> column name). */
  inputNames?: Record<string, string> | undefined
}

export interface ComparisonWorkbookView {
  path: string
  rows: number
}
