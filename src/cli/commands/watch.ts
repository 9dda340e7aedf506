/**
 * `runs watch` as --help and completion read it (name, usage, options). What it does is in
 * actions/watch.ts, loaded only when it runs.
 */
import { commandGroup, one } from '../command'

export const { runsWatch } = commandGroup(() => import('../actions/watch'), {
  runsWatch: {
    name: 'runs watch',
    summary: 'Follow a run until it ends, with progress on stderr; prints the final run detail.',
    usage: 'runs watch RUN',
    positionals: one('a RUN id'),
  },
})
