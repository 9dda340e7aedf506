/**
 * `runs list` and `runs show` as --help and completion read them (name, usage, options). What they
 * do is in actions/runs.ts, loaded only when one of them runs.
 */
import { commandGroup, one } from '../command'
import { VALUE } from '../flags'

export const { runsList, runsShow } = commandGroup(() => import('../actions/runs'), {
  runsList: {
    name: 'runs list',
    summary: 'List your runs, newest first (follows page tokens up to --limit, default 50).',
    usage: 'runs list [--status S] [--limit N]',
    options: { status: VALUE, limit: VALUE },
  },

  runsShow: {
    name: 'runs show',
    summary: 'Show one run: its status, tasks, errors per row, cost and artifacts.',
    usage: 'runs show RUN',
    positionals: one('a RUN id'),
  },
})
