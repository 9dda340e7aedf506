/** Compare runs: the comparison of two runs, and saving it as a workbook in the outputs folder. */
import { join } from 'node:path'
import { compareRuns, type CompareServices } from '../../flows/compare/compare-runs'
import {
  comparisonWorkbookName,
  writeComparisonWorkbook,
} from '../../flows/compare/compare-workbook'
import type { Connects, VerbContext, Verbs } from './context'

export function compareVerbs(
  ctx: VerbContext<Connects & CompareServices>,
): Verbs<'compareRuns' | 'saveComparison'> {
  const { engine, settings } = ctx
  return {
    async compareRuns(args) {
      const connection = await engine.connect({ env: args.environment })
      return compareRuns(engine, connection, args.runA, args.runB)
    },
    async saveComparison(args) {
      const connection = await engine.connect({ env: args.environment })
      const view = await compareRuns(engine, connection, args.runA, args.runB)
      const wanted = join(
        settings.read().outputsFolder,
        comparisonWorkbookName(args.runA, args.runB),
      )
      const path = await writeComparisonWorkbook(view, wanted)
      return { path, rows: view.rows.length }
    },
  }
}
