/**
 * `run`, `execute` and `runs retry-failed` as --help and completion read them (name, usage,
 * options). What they do is in actions/submit.ts, loaded only when one of them runs.
 */
import { commandGroup, one } from '../command'
import { mappingFlags, setAsideFlags, paidRunFlags, VALUE } from '../flags'

export const { run, execute, runsRetryFailed } = commandGroup(() => import('../actions/submit'), {
  run: {
    name: 'run',
    summary:
      'Validate a workbook, show the cost, and submit its rows to an official template only when confirmed.',
    usage:
      'run (FILE --template ID [--callback-url URL] [--rows N-M] [--sheet NAME] [--map "Column=fieldKey,..." | --map-file F.json] [--skip-invalid [--set-aside F.xlsx]] | --rest-of PILOT_RUN) [--yes] [--max-cost N] [--again] [--watch]',
    options: {
      template: VALUE,
      sheet: VALUE,
      'rest-of': VALUE,
      'callback-url': VALUE,
      rows: VALUE,
      ...paidRunFlags,
      ...mappingFlags,
      ...setAsideFlags,
    },
    positionals: { min: 0, max: 1, names: 'a workbook FILE' },
  },

  execute: {
    name: 'execute',
    summary:
      'Validate a workbook on the service, show the cost, and execute a marketplace listing only when confirmed.',
    usage:
      'execute FILE --listing ID --version VID [--yes] [--max-cost N] [--pilot N | --rows N-M] [--sheet NAME] [--map "Column=fieldKey,..." | --map-file F.json] [--skip-invalid [--set-aside F.xlsx]] [--again] [--watch]',
    options: {
      listing: VALUE,
      sheet: VALUE,
      version: VALUE,
      pilot: VALUE,
      rows: VALUE,
      ...paidRunFlags,
      ...mappingFlags,
      ...setAsideFlags,
    },
    positionals: one('a workbook FILE'),
  },

  runsRetryFailed: {
    name: 'runs retry-failed',
    summary:
      'Submit a new run with only the failed rows of a finished run made from this computer (asks first, or --yes).',
    usage: 'runs retry-failed RUN [--from FIXED.xlsx] [--yes] [--max-cost N] [--again] [--watch]',
    options: {
      from: VALUE,
      ...paidRunFlags,
    },
    positionals: one('a RUN id'),
  },
})
