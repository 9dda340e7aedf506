/** The rows set aside when a run was sent (planSubmission's skipInvalid), handed to the user. */
import { copyFile, stat } from 'node:fs/promises'
import { EngineError } from '../../errors'
import { setAsidePathOf } from '../../flows/spend/set-aside'
import type { SavedFiles } from '../saved-files'
import type { VerbContext, Verbs } from './context'

export function setAsideVerbs(ctx: VerbContext, files: SavedFiles): Verbs<'saveSetAsideRows'> {
  return {
    async saveSetAsideRows(args) {
      const connection = await ctx.engine.connect({ env: args.environment })
      const kept = setAsidePathOf(ctx.engine.home, connection.historyKey, args.runId)
      const there = await stat(kept).then(
        () => true,
        () => false,
      )
      if (!there)
        throw new EngineError(
          'not-found',
          `No rows were set aside when run ${args.runId} was sent from this computer.`,
          'Check the run in History, or check the workbook again to set its problem rows aside.',
        )
      return files.deliver(`${args.runId} rows to fix.xlsx`, 'Save the rows to fix', (path) =>
        copyFile(kept, path),
      )
    },
  }
}
