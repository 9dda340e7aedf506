/**
 * `runs download` and `runs results` as --help and completion read them (name, usage, options).
 * What they do is in actions/downloads.ts, loaded only when one of them runs.
 */
import { runFrom, type Command } from '../command'

const actions = () => import('../actions/downloads')

export const runsDownload: Command = {
  name: 'runs download',
  summary:
    'Download every artifact of a run into DIR/RUN, one folder per row (resumes cut files, skips finished ones).',
  usage: 'runs download RUN -o DIR',
  options: { output: { type: 'string', short: 'o' } },
  positionals: { min: 1, max: 1, names: 'a RUN id' },
  run: runFrom(actions, 'runsDownload'),
}

export const runsResults: Command = {
  name: 'runs results',
  summary:
    'Write the results workbook of a run: the rows sent, status, errors and every output (files downloaded next to it).',
  usage: 'runs results RUN -o FILE.xlsx',
  options: { output: { type: 'string', short: 'o' } },
  positionals: { min: 1, max: 1, names: 'a RUN id' },
  run: runFrom(actions, 'runsResults'),
}
