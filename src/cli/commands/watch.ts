/**
 * `runs watch` as --help and completion read it (name, usage, options). What it does is in
 * actions/watch.ts, loaded only when it runs.
 */
import { runFrom, type Command } from '../command'

const actions = () => import('../actions/watch')

export const runsWatch: Command = {
  name: 'runs watch',
  summary: 'Follow a run until it ends, with progress on stderr; prints the final run detail.',
  usage: 'runs watch RUN',
  positionals: { min: 1, max: 1, names: 'a RUN id' },
  run: runFrom(actions, 'runsWatch'),
}
