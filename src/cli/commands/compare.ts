/**
 * `runs compare` as --help and completion read it (name, usage, options). What it does is in
 * actions/compare.ts, loaded only when it runs.
 */
import { commandGroup } from '../command'
import { OUTPUT } from '../flags'

export const { runsCompare } = commandGroup(() => import('../actions/compare'), {
  runsCompare: {
    name: 'runs compare',
    summary:
      'Compare two runs: rows matched by their inputs, status and outputs side by side (-o writes a workbook).',
    usage: 'runs compare RUN_A RUN_B [-o FILE.xlsx]',
    options: { output: OUTPUT },
    positionals: { min: 2, max: 2, names: 'two RUN ids' },
  },
})
