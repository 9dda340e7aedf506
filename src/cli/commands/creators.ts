/**
 * `listings` and `reviews show` as --help and completion read them (name, usage, options). What
 * they do is in actions/creators.ts, loaded only when one of them runs.
 */
import { runFrom, type Command } from '../command'

const actions = () => import('../actions/creators')

export const listings: Command = {
  name: 'listings',
  summary: 'List your marketplace listings (all statuses), with an optional search.',
  usage: 'listings [--search Q] [--limit N]',
  options: { search: { type: 'string' }, limit: { type: 'string' } },
  run: runFrom(actions, 'listings'),
}

export const reviewsShow: Command = {
  name: 'reviews show',
  summary: 'Show one review request of your listings.',
  usage: 'reviews show ID',
  positionals: { min: 1, max: 1, names: 'a review request ID' },
  run: runFrom(actions, 'reviewsShow'),
}
