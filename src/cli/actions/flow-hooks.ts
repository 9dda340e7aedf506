/** How an engine flow reports on the command line: its steps as notes, its uploads as one bar. */
import type { ProgressHooks } from '../../core/flows/spend'
import type { CommandContext } from '../command'

export function flowHooks(ctx: CommandContext): ProgressHooks {
  const bar = ctx.out.bar('uploading', 'bytes')
  return {
    signal: ctx.signal,
    onStep: (line) => ctx.out.note(line),
    onUpload: ({ overall }) => {
      if (overall.totalBytes > 0) {
        bar.update(
          overall.sentBytes,
          overall.totalBytes,
          `${overall.doneFiles}/${overall.totalFiles} files`,
        )
      }
    },
  }
}
