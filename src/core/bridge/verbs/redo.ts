/** Redo rows: a plan of the chosen rows of a run, confirmed through confirmSubmission like any run. */
import { withMonthlyLimit, type LimitServices } from '../../flows/usage/limit'
import type { RowVersionsView } from '../../../shared/bridge'
import { rowLabel } from '../../../shared/format'
import type { Connection } from '../../environments/connection'
import {
  keepRowVersion,
  rowVersions,
  type KeepServices,
  type RowVersions,
} from '../../flows/results/row-versions'
import { planRedo, type RedoServices } from '../../flows/spend/plan-redo'
import { rowNumberingOf } from '../../flows/spend/submissions'
import { planView } from '../presenters/plan-view'
import type { Connects, VerbContext, Verbs } from './context'

export function redoVerbs(
  ctx: VerbContext<Connects & RedoServices & KeepServices & LimitServices>,
): Verbs<'planRedo' | 'rowVersions' | 'keepRowVersion'> {
  const { engine } = ctx
  const view = (connection: Connection, runId: string, rows: RowVersions[]): RowVersionsView => {
    const numbering = rowNumberingOf(engine.submissions.sheetOfRun(connection.historyKey, runId))
    return {
      items: rows.map((row) => ({
        label: rowLabel(numbering, row.index),
        versions: row.versions.map((v) => ({
          runId: v.runId,
          status: v.task?.status ?? 'unknown',
        })),
        kept: row.kept,
        index: row.index,
        keptBy: row.keptBy,
      })),
    }
  }
  return {
    async planRedo(args) {
      const connection = await engine.connect({ env: args.environment })
      const plan = await planRedo(engine, connection, args.runId, args.rows)
      return planView(await withMonthlyLimit(engine, plan))
    },
    async rowVersions(args) {
      const connection = await engine.connect({ env: args.environment })
      const detail = await connection.client.run(args.runId)
      return view(connection, args.runId, await rowVersions(engine, connection, detail))
    },
    async keepRowVersion(args) {
      const connection = await engine.connect({ env: args.environment })
      const detail = await connection.client.run(args.runId)
      const rows = await keepRowVersion(engine, connection, detail, args.index, args.version)
      return view(connection, args.runId, rows)
    },
  }
}
