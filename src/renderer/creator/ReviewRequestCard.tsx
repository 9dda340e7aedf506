import type { ReviewRequest } from '../../shared/contract'
import { formatUnixMoment } from '../../shared/format'
import { Fact } from '../components/Fact'
import { listingWord } from './ListingsTable'

const when = (unix: number) => formatUnixMoment(unix, 'date-time')

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
        <Fact label="Status" value={listingWord(r.status)} />
        <Fact label="Listing" value={`${r.listingId} · ${r.listingVersionId}`} />
        <Fact label="Submitted" value={when(r.submittedAtUnix)} />
        <Fact label="Reviewed" value={r.reviewedAtUnix ? when(r.reviewedAtUnix) : 'Not yet'} />
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
