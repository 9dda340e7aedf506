/**
 * `runs list` and `runs show` as --help and completion read them (name, usage, options). What they
 * do is in actions/runs.ts, loaded only when one of them runs.
 */
import { runFrom, type Command } from '../command'

const actions = () => import('../actions/runs')

export const runsList: Command = {
  name: 'runs list',
  summary: 'List your runs, newest first (follows page tokens up to --limit, default 50).',
  usage: 'runs list [--status S] [--limit N]',
  options: { status: { type: 'string' }, limit: { type: 'string' } },
  run: runFrom(actions, 'runsList'),
}

export const runsShow: Command = {
  name: 'runs show',
  summary: 'Show one run: its status, tasks, errors per row, cost and artifacts.',
  usage: 'runs show RUN',
  positionals: { min: 1, max: 1, names: 'a RUN id' },
  run: runFrom(actions, 'runsShow'),
}
