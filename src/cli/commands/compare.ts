/**
 * `runs compare` as --help and completion read it (name, usage, options). What it does is in
 * actions/compare.ts, loaded only when it runs.
 */
import { runFrom, type Command } from '../command'

const actions = () => import('../actions/compare')

export const runsCompare: Command = {
  name: 'runs compare',
  summary:
    'Compare two runs: rows matched by their inputs, status and outputs side by side (-o writes a workbook).',
  usage: 'runs compare RUN_A RUN_B [-o FILE.xlsx]',
  options: { output: { type: 'string', short: 'o' } },
  positionals: { min: 2, max: 2, names: 'two RUN ids' },
  run: runFrom(actions, 'runsCompare'),
}
