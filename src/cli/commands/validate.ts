/**
 * `validate` as --help and completion read it (name, usage, options). What it does is in
 * actions/validate.ts, loaded only when it runs.
 */
import { runFrom, type Command } from '../command'
import { mappingFlags } from '../flags'

const actions = () => import('../actions/validate')

export const validate: Command = {
  name: 'validate',
  summary:
    'Check a workbook: offline against a template (--template), or on the service for a listing (--listing --version).',
  usage:
    'validate FILE (--template ID | --listing ID --version VID) [--sheet NAME] [--annotate OUT.xlsx] [--map "Column=fieldKey,..." | --map-file F.json]',
  options: {
    annotate: { type: 'string' },
    sheet: { type: 'string' },
    template: { type: 'string' },
    listing: { type: 'string' },
    version: { type: 'string' },
    ...mappingFlags,
  },
  positionals: { min: 1, max: 1, names: 'a workbook FILE' },
  run: runFrom(actions, 'validate'),
}
