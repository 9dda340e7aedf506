/**
 * The xlsx reader and the writers (xlsx-and-writers.ts), each loaded on its first call: what
 * reaches workbooks through index.ts loads only the light part. A small csv checked from the
 * command line never needs them, and they were 65 KB of the 550 KB such a check loaded.
 */

/** Loads the xlsx reader and the writers (once: later imports are the same module). */
export const xlsxAndWriters = () => import('./xlsx-and-writers')

type Loaded = Awaited<ReturnType<typeof xlsxAndWriters>>

/** The function `pick` chooses of xlsx-and-writers.ts, which loads on the first call. */
function onFirstCall<A extends unknown[], R>(
  pick: (loaded: Loaded) => (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return async (...args) => pick(await xlsxAndWriters())(...args)
}

export const openXlsx = onFirstCall((m) => m.openXlsx)
export const generateInputWorkbook = onFirstCall((m) => m.generateInputWorkbook)
export const spillResultsRows = onFirstCall((m) => m.spillResultsRows)
export const writeRowsWorkbook = onFirstCall((m) => m.writeRowsWorkbook)
export const isSetAsideWorkbook = onFirstCall((m) => m.isSetAsideWorkbook)
export const linkSetAsideToRun = onFirstCall((m) => m.linkSetAsideToRun)
export const setAsideRunOf = onFirstCall((m) => m.setAsideRunOf)
