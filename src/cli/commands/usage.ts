/**
 * `usage` as --help and completion read it. What it does is in actions/usage.ts, loaded only
 * when it runs.
 */
import { commandGroup } from '../command'
import { VALUE } from '../flags'

export const { usage } = commandGroup(() => import('../actions/usage'), {
  usage: {
    name: 'usage',
    summary:
      'Credits spent per day or month and per template or listing, from the service’s runs list (kept for offline use), with rows run and succeeded.',
    usage: 'usage [--months N | --days N] [--by template|day] [--csv FILE]',
    options: { months: VALUE, days: VALUE, by: VALUE, csv: VALUE },
  },
})
