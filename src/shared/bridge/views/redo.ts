/** Redo rows: the versions of each row of a run that was sent again, and the one kept. */

export interface RowVersionsView {
  items: {
    /** "Row 6" or "Submitted row 5", as the first run names it. */
    label: string
    versions: { runId: string; status: string }[]
    /** Index into versions of the one the results workbook shows. */
    kept: number
  }[]
}
