/** The rows set aside when a run was sent (planSubmission's skipInvalid), handed to the user. */
import { copyFile } from 'node:fs/promises'
import { EngineError } from '../../errors'
import { runFileName } from '../../flows/downloads/downloads'
import { targetNamer } from '../../flows/history/target-names'
import { keptSetAsides } from '../../flows/spend/set-aside'
import type { SavedFiles } from '../saved-files'
import type { Engine } from '../../engine'
import type { Connects, VerbContext, Verbs } from './context'

export function setAsideVerbs(
  ctx: VerbContext<Connects & Pick<Engine, 'home' | 'history' | 'schemas' | 'submissions'>>,
  files: SavedFiles,
): Verbs<'saveSetAsideRows'> {
  return {
    async saveSetAsideRows(args) {
      const connection = await ctx.engine.connect({ env: args.environment })
      const kept = (await keptSetAsides(ctx.engine.home)).get(args.runId)
      if (!kept)
        throw new EngineError(
          'not-found',
          `No rows were set aside when run ${args.runId} was sent from this computer.`,
          'Check the run in History, or check the workbook again to set its problem rows aside.',
        )
      const sent = ctx.engine.submissions.byRun(connection.historyKey, args.runId)
      const nameOf = targetNamer({ history: ctx.engine.history, schemas: ctx.engine.schemas })
      const name = sent
        ? runFileName({ ...sent, targetName: nameOf(sent, null) }, 'rows to fix')
        : 'Rows to fix.xlsx'
      return files.deliver(name, 'Save the rows to fix', (path) => copyFile(kept.path, path))
    },
  }
}
