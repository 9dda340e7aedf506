/**
 * `batch show` as --help and completion read it (name, usage, options). What it does is in
 * actions/batch.ts, loaded only when it runs.
 */
import { commandGroup, one } from '../command'
import { VALUE } from '../flags'

export const { batchShow } = commandGroup(() => import('../actions/batch'), {
  batchShow: {
    name: 'batch show',
    summary:
      'Every row of a sheet sent from this computer, across all the runs made from it: not sent, set aside, running, succeeded or failed, and the run of the version kept.',
    usage: 'batch show RUN|FILE [--template ID | --listing ID]',
    options: { template: VALUE, listing: VALUE },
    positionals: one('a RUN id, or a workbook FILE already sent'),
  },
})
