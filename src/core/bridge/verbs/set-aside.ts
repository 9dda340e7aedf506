/** The rows set aside when a run was sent (planSubmission's skipInvalid), handed to the user. */
import { copyFile } from 'node:fs/promises'
import { EngineError } from '../../errors'
import { keptSetAsides } from '../../flows/spend/set-aside'
import type { SavedFiles } from '../saved-files'
import type { VerbContext, Verbs } from './context'

export function setAsideVerbs(ctx: VerbContext, files: SavedFiles): Verbs<'saveSetAsideRows'> {
  return {
    async saveSetAsideRows(args) {
      await ctx.engine.connect({ env: args.environment })
      const kept = (await keptSetAsides(ctx.engine.home)).get(args.runId)
      if (!kept)
        throw new EngineError(
          'not-found',
          `No rows were set aside when run ${args.runId} was sent from this computer.`,
          'Check the run in History, or check the workbook again to set its problem rows aside.',
        )
      return files.deliver(`${args.runId} rows to fix.xlsx`, 'Save the rows to fix', (path) =>
        copyFile(kept.path, path),
      )
    },
  }
}
