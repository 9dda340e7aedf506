/** Redo rows: a plan of the chosen rows of a run, confirmed through confirmSubmission like any run. */
import { rowLabel } from '../../../shared/format'
import { rowVersions } from '../../flows/results/row-versions'
import { planRedo } from '../../flows/spend/plan-redo'
import { rowNumberingOf } from '../../flows/spend/submissions'
import { planView } from '../presenters/plan-view'
import type { VerbContext, Verbs } from './context'

export function redoVerbs(ctx: VerbContext): Verbs<'planRedo' | 'rowVersions'> {
  const { engine } = ctx
  return {
    async planRedo(args) {
      const connection = await engine.connect({ env: args.environment })
      return planView(await planRedo(engine, connection, args.runId, args.rows))
    },
    async rowVersions(args) {
      const connection = await engine.connect({ env: args.environment })
      const detail = await connection.client.run(args.runId)
      const numbering = rowNumberingOf(engine.submissions.byRun(connection.historyKey, args.runId))
      const rows = await rowVersions(engine, connection, detail)
      return {
        items: rows.map((row) => ({
          label: rowLabel(numbering, row.index),
          versions: row.versions.map((v) => ({
            runId: v.runId,
            status: v.task?.status ?? 'unknown',
          })),
          kept: row.kept,
        })),
      }
    },
  }
}
