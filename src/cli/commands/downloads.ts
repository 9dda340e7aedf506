/**
 * `runs download` and `runs results` as --help and completion read them (name, usage, options).
 * What they do is in actions/downloads.ts, loaded only when one of them runs.
 */
import { commandGroup, one } from '../command'
import { OUTPUT } from '../flags'

export const { runsDownload, runsResults } = commandGroup(() => import('../actions/downloads'), {
  runsDownload: {
    name: 'runs download',
    summary:
      'Download every artifact of a run into DIR/RUN, one folder per row (resumes cut files, skips finished ones).',
    usage: 'runs download RUN -o DIR',
    options: { output: OUTPUT },
    positionals: one('a RUN id'),
  },

  runsResults: {
    name: 'runs results',
    summary:
      'Write the results workbook of a run: the rows sent, status, errors and every output (files downloaded next to it).',
    usage: 'runs results RUN -o FILE.xlsx',
    options: { output: OUTPUT },
    positionals: one('a RUN id'),
  },
})
