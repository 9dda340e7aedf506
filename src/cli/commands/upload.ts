/**
 * `upload` as --help and completion read it (name, usage, options). What it does is in
 * actions/upload.ts, loaded only when it runs.
 */
import { commandGroup, one } from '../command'

export const { upload } = commandGroup(() => import('../actions/upload'), {
  upload: {
    name: 'upload',
    summary: 'Upload one input file; prints its input asset (the same content is uploaded once).',
    usage: 'upload FILE',
    positionals: one('a FILE'),
  },
})
