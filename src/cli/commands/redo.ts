/**
 * `runs redo` and `runs keep` as --help and completion read them (name, usage, options). What they
 * do is in actions/redo.ts, loaded only when one of them runs.
 */
import { runFrom, type Command } from '../command'
import { paidRunFlags } from '../flags'

const actions = () => import('../actions/redo')

export const runsRedo: Command = {
  name: 'runs redo',
  summary:
    'Send chosen rows of a run made from this computer again, as a new run (asks first, or --yes).',
  usage: 'runs redo RUN (--rows 3,7 | --from results.xlsx) [--yes] [--max-cost N] [--watch]',
  options: {
    rows: { type: 'string' },
    from: { type: 'string' },
    ...paidRunFlags,
  },
  positionals: { min: 1, max: 1, names: 'a RUN id' },
  run: runFrom(actions, 'runsRedo'),
}

export const runsKeep: Command = {
  name: 'runs keep',
  summary:
    'Show the versions of a row sent again, or choose the one kept (--version): the results workbook shows it.',
  usage: 'runs keep RUN --row N [--version K]',
  options: { row: { type: 'string' }, version: { type: 'string' } },
  positionals: { min: 1, max: 1, names: 'a RUN id' },
  run: runFrom(actions, 'runsKeep'),
}
