/**
 * `runs redo` and `runs keep` as --help and completion read them (name, usage, options). What they
 * do is in actions/redo.ts, loaded only when one of them runs.
 */
import { commandGroup, one } from '../command'
import { paidRunFlags, VALUE } from '../flags'

export const { runsRedo, runsKeep } = commandGroup(() => import('../actions/redo'), {
  runsRedo: {
    name: 'runs redo',
    summary:
      'Send chosen rows of a run made from this computer again, as a new run (asks first, or --yes).',
    usage: 'runs redo RUN (--rows 3,7 | --from results.xlsx) [--yes] [--max-cost N] [--watch]',
    options: {
      rows: VALUE,
      from: VALUE,
      ...paidRunFlags,
    },
    positionals: one('a RUN id'),
  },

  runsKeep: {
    name: 'runs keep',
    summary:
      'Show the versions of a row sent again, or choose the one kept (--version): the results workbook shows it.',
    usage: 'runs keep RUN --row N [--version K]',
    options: { row: VALUE, version: VALUE },
    positionals: one('a RUN id'),
  },
})
