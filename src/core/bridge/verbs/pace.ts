/** Time left: earlier runs' paces from this computer's history, for runs with too few rows done. */
import { earlierPaceSamples, type EarlierPaceServices } from '../../flows/watch/earlier-paces'
import type { Connects, VerbContext, Verbs } from './context'

export function paceVerbs(ctx: VerbContext<Connects & EarlierPaceServices>): Verbs<'earlierPaces'> {
  const { engine } = ctx
  return {
    async earlierPaces(args) {
      const connection = await engine.connect({ env: args.environment })
      return { samples: earlierPaceSamples(engine, connection.historyKey, args) }
    },
  }
}
