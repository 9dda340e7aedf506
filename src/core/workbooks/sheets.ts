/**
 * The sheets of an input workbook, as the generator names them and as every reader chooses
 * among them, and how a cell or a column is named to the user (its text, its letter).
 */
import type { CellValue } from '../../shared/input-schema'

/** Sheet names the generator writes besides the input sheet. */
export const SHEETS = Object.freeze({
  errors: 'Errors',
  input: 'Input',
  run: 'Run settings',
  instructions: 'Instructions',
  samples: 'Samples',
  mapping: '_fields',
} as const)

/** A cell as text for headers and generic columns (a date as its day, or with its time). */
export function cellText(cell: CellValue): string {
  if (cell instanceof Date) {
    if (Number.isNaN(cell.getTime())) return ''
    const iso = cell.toISOString()
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19)
  }
  return String(cell)
}

export function columnLetter(index: number): string {
  let n = index + 1
  let out = ''
  while (n > 0) {
    const r = (n - 1) % 26
    out = String.fromCharCode(65 + r) + out
    n = Math.floor((n - 1) / 26)
  }
  return out
}

function sameName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase()
}

/** One of the sheets the generator writes besides the input sheet (or the annotated Errors). */
function isOurSheet(name: string): boolean {
  return [SHEETS.run, SHEETS.instructions, SHEETS.samples, SHEETS.mapping, SHEETS.errors].some(
    (ours) => sameName(ours, name),
  )
}

/** Whether a sheet can hold the rows: a visible worksheet, not one of the generator's other sheets. */
function mayBeInput(name: string, state: string | undefined, kind?: string): boolean {
  return state !== 'hidden' && state !== 'veryHidden' && kind !== 'other' && !isOurSheet(name)
}

/**
 * The sheet with the rows: the one the check read (`named`, when it chose among several), else
 * the one named Input, else the first visible sheet not of ours.
 */
export function chooseInputSheet<T extends { name: string; state?: string; kind?: string }>(
  sheets: T[],
  named?: string,
): T | undefined {
  return (
    (named === undefined
      ? undefined
      : sheets.find((s) => sameName(s.name, named) && s.kind !== 'other')) ??
    sheets.find((s) => sameName(s.name, SHEETS.input) && s.kind !== 'other') ??
    sheets.find((s) => mayBeInput(s.name, s.state, s.kind))
  )
}

/** The sheets that may hold the rows (visible worksheets not of ours), in the workbook's order. */
export function inputCandidates<T extends { name: string; state?: string; kind?: string }>(
  sheets: T[],
): T[] {
  return sheets.filter((s) => mayBeInput(s.name, s.state, s.kind))
}

/**
 * Whether a sheet met while streaming (no look ahead) is the input sheet: the first one named
 * Input or able to hold rows.
 */
export function isStreamedInputSheet(name: string, state: string | undefined, taken: boolean) {
  return !taken && (sameName(name, SHEETS.input) || mayBeInput(name, state))
}

export function sameSheetName(a: string, b: string): boolean {
  return sameName(a, b)
}
