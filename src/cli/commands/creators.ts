/** `listings` and `reviews show`: the creator's views. */
import type { CreatorListing, ReviewRequest } from '../../shared/contract'
import { integerOption, stringOption, type Command } from '../command'
import { table } from '../output'
import { localTime } from '../time'

export const listings: Command = {
  name: 'listings',
  summary: 'List your marketplace listings (all statuses), with an optional search.',
  usage: 'listings [--search Q] [--limit N]',
  options: { search: { type: 'string' }, limit: { type: 'string' } },
  async run(ctx, args) {
    const limit = integerOption(stringOption(args, 'limit'), '--limit', 1, 1_000_000)
    const connection = await ctx.connect()
    const items = await connection.client.listAllCreatorListings(
      { search: stringOption(args, 'search'), limit },
      { signal: ctx.signal },
    )
    ctx.out.result({ items }, () =>
      items.length === 0
        ? 'No listings.'
        : table(
            [
              'LISTING',
              'NAME',
              'VERSION',
              'STATUS',
              'SALE',
              'REVIEW',
              `FEE PER TASK (${connection.unitLabel})`,
            ],
            items.map((l: CreatorListing) => [
              l.id,
              l.displayName,
              // The version a buyer runs: pass it as --version.
              l.publishedVersionId || l.listingVersionId || '-',
              l.status,
              l.saleStatus,
              l.reviewStatus,
              String(l.taskFixedFeeT),
            ]),
          ),
    )
  },
}

export const reviewsShow: Command = {
  name: 'reviews show',
  summary: 'Show one review request of your listings.',
  usage: 'reviews show ID',
  positionals: { min: 1, max: 1, names: 'a review request ID' },
  async run(ctx, args) {
    const connection = await ctx.connect()
    const request = await connection.client.reviewRequest(args.positionals[0]!, {
      signal: ctx.signal,
    })
    ctx.out.result(request, () => describeReview(request))
  },
}

function describeReview(r: ReviewRequest): string {
  return [
    `${r.displayName} (${r.id})`,
    `status: ${r.status}${r.reviewReason ? `, reason: ${r.reviewReason}` : ''}`,
    `listing ${r.listingId}, version ${r.listingVersionId}`,
    `submitted ${localTime(r.submittedAtUnix)}, reviewed ${localTime(r.reviewedAtUnix)}`,
    ...(r.description ? ['', r.description] : []),
  ].join('\n')
}
