import type { CreatorListing } from '../../shared/contract'
import { formatAmount } from '../../shared/format'
import { ColumnHeadings } from '../components/ColumnHeadings'

const WORDS: Record<string, string> = {
  pending_review: 'Pending review',
  rejected: 'Rejected',
  published: 'Published',
  unlisted: 'Unlisted',
  on_sale: 'On sale',
  not_on_sale: 'Not on sale',
  available: 'Available',
  unavailable: 'Unavailable',
  approved: 'Approved',
  pending: 'Pending',
}

/** A listing's state in words; unknown values as the service sent them. */
export function listingWord(value: string): string {
  if (!value) return '—'
  return WORDS[value] ?? value
}

function tone(value: string): string {
  if (['published', 'on_sale', 'available', 'approved'].includes(value)) return 'good'
  if (['rejected', 'unavailable'].includes(value)) return 'bad'
  if (['pending_review', 'pending'].includes(value)) return 'waiting'
  return 'muted'
}

function Word(props: { value: string }) {
  return (
    <span className={`badge badge-${tone(props.value)}`}>
      <span className="badge-dot" aria-hidden="true" />
      {listingWord(props.value)}
    </span>
  )
}

export function ListingsTable(props: {
  listings: CreatorListing[]
  unitLabel: string
  onReview: (reviewRequestId: string) => void
}) {
  return (
    <div className="plain-scroll" tabIndex={0} role="region" aria-label="My listings, scrollable">
      <table className="plain-table listings-table">
        <thead>
          <tr>
            <ColumnHeadings
              headings={[
                'Listing',
                'Status, sale and availability',
                'Review',
                { label: 'Fee per row', numeric: true },
              ]}
            />
          </tr>
        </thead>
        <tbody>
          {props.listings.map((listing) => (
            <tr key={listing.id} data-listing-id={listing.id}>
              <td>
                <span className="run-name">{listing.displayName || listing.id}</span>
                <span className="run-sub">
                  {listing.id}
                  {listing.publishedVersionId ? ` · published ${listing.publishedVersionId}` : ''}
                </span>
              </td>
              <td>
                <span className="badges">
                  <Word value={listing.status} />
                  <Word value={listing.saleStatus} />
                  <Word value={listing.executionAvailabilityStatus} />
                </span>
              </td>
              <td>
                <Word value={listing.reviewStatus} />
                {listing.reviewReason && (
                  <span className="run-sub review-reason">{listing.reviewReason}</span>
                )}
                {listing.reviewRequestId && (
                  <button
                    type="button"
                    className="link-button"
                    aria-label={`Open the review request of ${listing.displayName || listing.id}`}
                    onClick={() => props.onReview(listing.reviewRequestId)}
                  >
                    Review request
                  </button>
                )}
              </td>
              <td className="num">{formatAmount(listing.taskFixedFeeT, props.unitLabel)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
