/**
 * `validate` as --help and completion read it (name, usage, options). What it does is in
 * ../validate.ts (and actions/validate.ts with the engine), loaded only when it runs.
 */
import { commandGroup, one } from '../command'
import { mappingFlags, VALUE } from '../flags'

export const { validate } = commandGroup(() => import('../validate'), {
  validate: {
    name: 'validate',
    summary:
      'Check a workbook: offline against a template (--template), or on the service for a listing (--listing --version).',
    usage:
      'validate FILE (--template ID | --listing ID --version VID) [--sheet NAME] [--annotate OUT.xlsx] [--map "Column=fieldKey,..." | --map-file F.json]',
    options: {
      annotate: VALUE,
      sheet: VALUE,
      template: VALUE,
      listing: VALUE,
      version: VALUE,
      ...mappingFlags,
    },
    positionals: one('a workbook FILE'),
  },
})
