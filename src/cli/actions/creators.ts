/** `listings` and `reviews show`: the creator's views. */
import type { CreatorListing, ReviewRequest } from '../../shared/contract'
import { integerOption, stringOption, type ParsedArgs, type CommandContext } from '../command'
import { table } from '../output'
import { localTime } from '../time'

export async function listings(ctx: CommandContext, args: ParsedArgs) {
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

export async function reviewsShow(ctx: CommandContext, args: ParsedArgs) {
  const connection = await ctx.connect()
  const request = await connection.client.reviewRequest(args.positionals[0]!, {
    signal: ctx.signal,
  })
  ctx.out.result(request, () => describeReview(request))
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
