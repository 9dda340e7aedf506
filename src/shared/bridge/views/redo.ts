/** Redo rows: the versions of each row of a run that was sent again, and the one kept. */

export interface RowVersionsView {
  items: {
    /** "Row 6" or "Submitted row 5", as the first run names it. */
    label: string
    versions: { runId: string; status: string }[]
    /** Index into versions of the one the results workbook shows. */
    kept: number
    /** The row's index in the run, to name it when keeping another version. */
    index: number
    /** Kept because the user chose it, or by the rule (the newest that succeeded). */
    keptBy: 'choice' | 'rule'
  }[]
}
