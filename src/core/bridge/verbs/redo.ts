/** Redo rows: a plan of the chosen rows of a run, confirmed through confirmSubmission like any run. */
import { planRedo } from '../../flows/spend/plan-redo'
import { planView } from '../presenters/plan-view'
import type { VerbContext, Verbs } from './context'

export function redoVerbs(ctx: VerbContext): Verbs<'planRedo'> {
  const { engine } = ctx
  return {
    async planRedo(args) {
      const connection = await engine.connect({ env: args.environment })
      return planView(await planRedo(engine, connection, args.runId, args.rows))
    },
  }
}
