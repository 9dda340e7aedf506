/**
 * Why the workbook cannot be sent yet, in the buyer's words, or null when it can. The Send step
 * shows this beside its disabled button, so "ready to send" and a disabled or empty send are
 * never shown together: one rule decides both. A bad address to call when the run ends blocks
 * the button too, with its own reason, without calling the workbook unready.
 */
import { callbackAddressProblem } from '../../../shared/callback-address'
import { uploadedFileCells } from './files-slice'
import type { PrepareData } from './prepare-state'

function plural(n: number, word: string) {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`
}

/** Files the workbook names that only an upload can bring (browser mode) and lack one. */
function filesNotUploaded(state: PrepareData): number {
  if (!state.check) return 0
  const uploaded = new Set(uploadedFileCells(state).map((u) => u.path))
  const waiting = new Set<string>()
  for (const cell of state.check.fileCells)
    if (cell.state === 'unchecked' && !uploaded.has(cell.value)) waiting.add(cell.value)
  return waiting.size
}

/**
 * Why the workbook itself cannot be sent yet (the step says the workbook is ready, and a pilot
 * can be chosen, only without one).
 */
export function workbookBlocker(state: PrepareData): string | null {
  const { check } = state
  if (state.checkState === 'reading') return 'Wait for the check of the workbook to finish.'
  if (state.checkError) return 'The workbook could not be checked: see the problem above.'
  if (!check) return 'Drop the filled workbook in step 3 first.'
  if (!check.target) return 'Choose what this workbook is for in step 1.'
  if (!check.valid) {
    const problems = check.fileErrors.length + check.problems.length
    return `Fix the ${plural(problems, 'problem')} in the workbook, then check it again.`
  }
  if (check.rowCount === 0) return 'The workbook has no rows to send: fill in at least one row.'
  if (state.uploading) return 'Wait for the files to finish uploading.'
  const waiting = filesNotUploaded(state)
  if (waiting > 0) return `Upload the ${plural(waiting, 'file')} the workbook names first.`
  return null
}

/** Why Send does not work yet: the workbook's reason, else a bad address to call at the end. */
export function sendBlocker(state: PrepareData): string | null {
  const workbook = workbookBlocker(state)
  if (workbook) return workbook
  if (state.check?.target?.kind === 'listing' && state.listing && !state.listing.executable)
    return 'This listing cannot be run now (it is not on sale and available): choose another in step 1.'

  if (state.check?.target?.kind === 'template' && callbackAddressProblem(state.callbackUrl))
    return 'Correct the address to call when the run ends (in Advanced options), or clear it.'
  return null
}

/**
 * When some rows have problems and the rest are fine, the rows that can go (the others set aside
 * to fix); null when that does not apply. Then a pilot of the valid rows can be sent too.
 */
export function rowsToSetAside(state: PrepareData): { good: number; bad: number } | null {
  const { check } = state
  if (!check || check.valid || state.checkState === 'reading' || !check.target) return null
  if (check.fileErrors.length > 0 || check.problems.length === 0) return null
  const bad = new Set(check.problems.map((p) => p.rowNumber)).size
  const good = check.rowCount - bad
  return good > 0 ? { good, bad } : null
}
