/**
 * `history` as --help and completion read it (name, usage, options). What it does is in
 * actions/history.ts, loaded only when it runs.
 */
import { commandGroup } from '../command'
import { searchFlags } from '../flags'

export const { history } = commandGroup(() => import('../actions/history'), {
  history: {
    name: 'history',
    summary:
      'The submissions made from this computer, newest first, with their run’s latest status and cost; --search matches file, template, listing, run, status or date.',
    usage: 'history [--search Q] [--limit N]',
    options: searchFlags,
  },
})
