/**
 * `run`, `execute` and `runs retry-failed` as --help and completion read them (name, usage,
 * options). What they do is in actions/submit.ts, loaded only when one of them runs.
 */
import { runFrom, type Command } from '../command'
import { mappingFlags, setAsideFlags, paidRunFlags } from '../flags'

const actions = () => import('../actions/submit')

export const run: Command = {
  name: 'run',
  summary:
    'Validate a workbook, show the cost, and submit its rows to an official template only when confirmed.',
  usage:
    'run (FILE --template ID [--callback-url URL] [--rows N-M] [--sheet NAME] [--map "Column=fieldKey,..." | --map-file F.json] [--skip-invalid [--set-aside F.xlsx]] | --rest-of PILOT_RUN) [--yes] [--max-cost N] [--again] [--watch]',
  options: {
    template: { type: 'string' },
    sheet: { type: 'string' },
    'rest-of': { type: 'string' },
    'callback-url': { type: 'string' },
    rows: { type: 'string' },
    ...paidRunFlags,
    ...mappingFlags,
    ...setAsideFlags,
  },
  positionals: { min: 0, max: 1, names: 'a workbook FILE' },
  run: runFrom(actions, 'run'),
}

export const execute: Command = {
  name: 'execute',
  summary:
    'Validate a workbook on the service, show the cost, and execute a marketplace listing only when confirmed.',
  usage:
    'execute FILE --listing ID --version VID [--yes] [--max-cost N] [--pilot N | --rows N-M] [--sheet NAME] [--map "Column=fieldKey,..." | --map-file F.json] [--skip-invalid [--set-aside F.xlsx]] [--again] [--watch]',
  options: {
    listing: { type: 'string' },
    sheet: { type: 'string' },
    version: { type: 'string' },
    pilot: { type: 'string' },
    rows: { type: 'string' },
    ...paidRunFlags,
    ...mappingFlags,
    ...setAsideFlags,
  },
  positionals: { min: 1, max: 1, names: 'a workbook FILE' },
  run: runFrom(actions, 'execute'),
}

export const runsRetryFailed: Command = {
  name: 'runs retry-failed',
  summary:
    'Submit a new run with only the failed rows of a finished run made from this computer (asks first, or --yes).',
  usage: 'runs retry-failed RUN [--from FIXED.xlsx] [--yes] [--max-cost N] [--again] [--watch]',
  options: {
    from: { type: 'string' },
    ...paidRunFlags,
  },
  positionals: { min: 1, max: 1, names: 'a RUN id' },
  run: runFrom(actions, 'runsRetryFailed'),
}
