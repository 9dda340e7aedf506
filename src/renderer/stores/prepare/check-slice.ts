/**
 * Step 3 of the New run screen: the workbook the user dropped and its check against the chosen
 * target, the run-scoped values typed beside it, the cell the grid points at, and the marked-up
 * copy. The workbook stays the source of truth: nothing here edits rows; "Check again" reads the
 * file again after the user fixed it.
 */
import type { BridgeErrorInfo, FileRef, WorkbookCheckView } from '../../../shared/bridge'
import type { RunTarget } from '../../../shared/run-target'
import { errorInfo } from '../errors'
import { defined } from '../../../shared/defined'
import type { SliceContext } from './prepare-state'
import type { CheckData, CheckActions } from './check-types'
export type { CheckData, CheckActions } from './check-types'

export function initialCheck(): CheckData {
  return {
    file: null,
    checkState: 'idle',
    checkId: '',
    rowsRead: 0,
    check: null,
    checkError: null,
    focus: null,
    leftWorkbook: null,
    runValues: {},
    sheet: null,
    markedUpSaving: false,
    markedUpSaved: null,
    markedUpError: null,
  }
}

/** The run values the user filled in (blank ones are left to the workbook or the schema). */
export function filledRunValues(state: Pick<CheckData, 'runValues'>): Record<string, string> {
  return Object.fromEntries(Object.entries(state.runValues).filter(([, v]) => v.trim() !== ''))
}

/** One line that says how the check went. */
export function checkHeadline(check: WorkbookCheckView): string {
  const rows = `${check.rowCount.toLocaleString('en-US')} row${check.rowCount === 1 ? '' : 's'}`
  if (!check.target) return `${rows} read. Choose what this workbook is for to check it.`
  const problems = check.fileErrors.length + check.problems.length
  // An empty workbook is never called ready: there would be nothing to send.
  if (check.valid && check.rowCount === 0) return 'No rows to send: fill in at least one row.'
  if (check.valid) return `${rows}, no problems: ready to send.`
  return `${rows}, ${problems.toLocaleString('en-US')} problem${problems === 1 ? '' : 's'} to fix in the workbook.`
}

/** Says a dropped file could not be read by the page itself (before the engine saw it). */
function unreadableFile(file: File): BridgeErrorInfo {
  return {
    code: 'not-found',
    message: `The browser could not read “${file.name}” (it may have changed since you chose it).`,
    nextStep: 'Choose or drop the workbook again.',
  }
}

/** Checks `file` against `target`; a later check (a new checkId) makes this one's answer moot. */
export async function checkFile(
  ctx: SliceContext,
  file: File,
  target: RunTarget | null,
  mapping?: Record<string, string | null>,
) {
  const { set, get, api } = ctx
  const { environment, checkId: previous, checkState } = get()
  if (!environment) return
  if (checkState === 'reading' && previous) api.cancelCheck({ checkId: previous }).catch(() => {})
  const checkId = ctx.newId()
  set({
    file,
    checkId,
    checkState: 'reading',
    rowsRead: 0,
    checkError: null,
    markedUpSaved: null,
    markedUpError: null,
    focus: null,
  })
  let ref: FileRef
  try {
    ref = await ctx.toFileRef(file)
  } catch {
    if (get().checkId === checkId)
      set({ checkState: 'error', check: null, checkError: unreadableFile(file) })
    return
  }
  const runValues = filledRunValues(get())
  const sheet = get().sheet
  try {
    const check = await api.checkWorkbook({
      environment,
      checkId,
      file: ref,
      ...defined({
        target: target ?? undefined,
        runValues: Object.keys(runValues).length ? runValues : undefined,
        sheet: sheet || undefined,
        mapping,
      }),
    })
    if (get().checkId !== checkId) return
    set({
      check,
      checkState: 'done',
      rowsRead: check.rowCount,
      runValues: { ...get().runValues },
    })
    // A workbook made by the app named its template: show that template's form too.
    if (!get().target && check.target && check.targetFromWorkbook) {
      const { name: _name, ...picked } = check.target
      void _name
      get().adoptWorkbookTarget(picked)
    }
  } catch (error) {
    if (get().checkId !== checkId) return
    // The previous answer is not shown beside this error: it was for another file or target.
    set({ checkState: 'error', check: null, checkError: errorInfo(error) })
  }
}

export function checkActions(ctx: SliceContext): CheckActions {
  const { set, get, api } = ctx

  return {
    async takeFile(file) {
      // Another workbook: the uploads made for the previous one's file cells no longer apply.
      // The note about a restored draft (and its workbook) no longer applies either.
      set({ uploads: [], overall: null, uploadError: null, sheet: null, mapping: null })
      set({ restored: null, leftWorkbook: null })
      await checkFile(ctx, file, get().target)
    },
    async checkAgain() {
      const { file, target } = get()
      if (file) await checkFile(ctx, file, target)
    },
    async cancelCheck() {
      const { checkId, checkState } = get()
      if (checkState !== 'reading') return
      set({ checkState: 'idle', checkId: '', rowsRead: 0, file: null, check: null })
      await api.cancelCheck({ checkId }).catch(() => {})
    },
    applyProgress(update) {
      if (update.checkId !== get().checkId || get().checkState !== 'reading') return
      set({ rowsRead: Math.max(get().rowsRead, update.rowsRead) })
    },
    focusProblem(rowPosition, column) {
      // A new seq tells two jumps to the same cell apart, so the grid scrolls there again.
      const seq = (get().focus?.seq ?? 0) + 1
      set({ focus: { rowPosition, column, seq } })
    },
    async chooseSheet(sheet) {
      const { file, target } = get()
      set({ sheet })
      if (file) await checkFile(ctx, file, target)
    },
    setRunValue(key, value) {
      set({ runValues: { ...get().runValues, [key]: value } })
    },
    async applyRunValues() {
      await get().checkAgain()
    },
    async confirmMapping(mapping) {
      const { file, target } = get()
      set({ mapping })
      if (file) await checkFile(ctx, file, target, mapping)
    },
    async saveMarkedUp() {
      const { check } = get()
      if (!check) return
      set({ markedUpSaving: true, markedUpError: null, markedUpSaved: null })
      try {
        const saved = await api.saveMarkedUpCopy({ checkId: check.checkId })
        if (saved?.kind === 'bytes') ctx.download(saved)
        set({ markedUpSaving: false, markedUpSaved: saved })
      } catch (error) {
        set({ markedUpSaving: false, markedUpError: errorInfo(error) })
      }
    },
  }
}
