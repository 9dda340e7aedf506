/** `listings` and `reviews show`: the creator's views. */
import type { CreatorListing, ReviewRequest } from '../../shared/contract'
import { integerOption, showOne, stringOption, type RunCommand } from '../command'
import { table } from '../output'
import { localTime } from '../time'

export const listings: RunCommand = async (ctx, args) => {
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
}

export const reviewsShow: RunCommand = (ctx, args) =>
  showOne(ctx, args, (client, id, options) => client.reviewRequest(id, options), describeReview)

function describeReview(r: ReviewRequest): string {
  return [
    `${r.displayName} (${r.id})`,
    `status: ${r.status}${r.reviewReason ? `, reason: ${r.reviewReason}` : ''}`,
    `listing ${r.listingId}, version ${r.listingVersionId}`,
    `submitted ${localTime(r.submittedAtUnix)}, reviewed ${localTime(r.reviewedAtUnix)}`,
    ...(r.description ? ['', r.description] : []),
  ].join('\n')
}
