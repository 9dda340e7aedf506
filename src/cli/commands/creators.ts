/**
 * `listings` and `reviews show` as --help and completion read them (name, usage, options). What
 * they do is in actions/creators.ts, loaded only when one of them runs.
 */
import { commandGroup, one } from '../command'
import { searchFlags } from '../flags'

export const { listings, reviewsShow } = commandGroup(() => import('../actions/creators'), {
  listings: {
    name: 'listings',
    summary: 'List your marketplace listings (all statuses), with an optional search.',
    usage: 'listings [--search Q] [--limit N]',
    options: searchFlags,
  },

  reviewsShow: {
    name: 'reviews show',
    summary: 'Show one review request of your listings.',
    usage: 'reviews show ID',
    positionals: one('a review request ID'),
  },
})
