import type { ReviewRequest } from '../../shared/contract'
import { listingWord } from './ListingsTable'

function when(unix: number): string {
  if (!unix) return '—'
  return new Date(unix * 1000).toLocaleString(undefined, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  })
}

/** One review request of my listings: where it stands and why. */
export function ReviewRequestCard(props: { request: ReviewRequest; onClose: () => void }) {
  const r = props.request
  return (
    <section className="sub-card" aria-labelledby="review-title">
      <div className="preview-head">
        <h3 id="review-title">Review request: {r.displayName || r.id}</h3>
        <button type="button" className="btn btn-quiet btn-small" onClick={props.onClose}>
          Close
        </button>
      </div>
      <dl className="facts">
        <div className="fact">
          <dt>Status</dt>
          <dd>{listingWord(r.status)}</dd>
        </div>
        <div className="fact">
          <dt>Listing</dt>
          <dd>
            {r.listingId} · {r.listingVersionId}
          </dd>
        </div>
        <div className="fact">
          <dt>Submitted</dt>
          <dd>{when(r.submittedAtUnix)}</dd>
        </div>
        <div className="fact">
          <dt>Reviewed</dt>
          <dd>{r.reviewedAtUnix ? when(r.reviewedAtUnix) : 'Not yet'}</dd>
        </div>
      </dl>
      {r.reviewReason && (
        <p className="review-reason-box">
          <strong>Reason: </strong>
          {r.reviewReason}
        </p>
      )}
      {r.description && <p className="card-sub">{r.description}</p>}
    </section>
  )
}
