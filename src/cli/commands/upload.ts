/**
 * `upload` as --help and completion read it (name, usage, options). What it does is in
 * actions/upload.ts, loaded only when it runs.
 */
import { runFrom, type Command } from '../command'

const actions = () => import('../actions/upload')

export const upload: Command = {
  name: 'upload',
  summary: 'Upload one input file; prints its input asset (the same content is uploaded once).',
  usage: 'upload FILE',
  positionals: { min: 1, max: 1, names: 'a FILE' },
  run: runFrom(actions, 'upload'),
}
