import { useCallback, useEffect, useId, useState } from 'react'
import type { EnvironmentView } from '../../shared/bridge'
import { ErrorNotice } from '../components/ErrorNotice'
import { SearchToolbar } from '../components/SearchField'
import { ListingsTable } from '../creator/ListingsTable'
import { PrivateTemplateCard } from '../creator/PrivateTemplateCard'
import { ReviewRequestCard } from '../creator/ReviewRequestCard'
import { useCreator, useStores, useFields } from '../stores/context'
import { Card, EmptyList } from '../components/CardParts'

/** My marketplace listings with their review, one review request, and a private template. */
export function CreatorScreen(props: { env: EnvironmentView }) {
  const { creator } = useStores()
  const { listings, search, loading, loaded, nextPageToken, error } = useFields(
    'creator',
    'listings',
    'search',
    'loading',
    'loaded',
    'nextPageToken',
    'error',
  )

  useEffect(() => {
    void creator.getState().open(props.env.name)
  }, [creator, props.env.name])
  const setSearch = useCallback(
    (text: string) => void creator.getState().setSearch(text),
    [creator],
  )

  return (
    <div className="run-detail-stack">
      <Card
        titleId="listings-title"
        title="My listings"
        sub={
          loading
            ? 'Loading your listings…'
            : `Listings you sell on the ${props.env.name} marketplace, in every state${
                loaded ? ` · ${listings.length}${nextPageToken ? '+' : ''} shown` : ''
              }.`
        }
        live
        tools={
          <SearchToolbar
            label="Search my listings"
            placeholder="Search my listings"
            value={search}
            onSearch={setSearch}
          />
        }
      >
        {error && (
          <ErrorNotice error={error} onRetry={() => void creator.getState().open(props.env.name)} />
        )}
        {loaded && !loading && !error && listings.length === 0 ? (
          <NoListings
            search={search.trim()}
            onClear={() => setSearch('')}
            onCheckAgain={() => void creator.getState().open(props.env.name)}
          />
        ) : (
          listings.length > 0 && (
            <ListingsTable
              listings={listings}
              unitLabel={props.env.unitLabel}
              onReview={(id) => void creator.getState().showReview(id)}
            />
          )
        )}
        <MoreListings />
        <OpenedReview />
      </Card>
      <PrivateTemplateLookup />
    </div>
  )
}

/** No listing: none matches the search (clear it), or none created yet (look again later). */
function NoListings(props: { search: string; onClear: () => void; onCheckAgain: () => void }) {
  return (
    <EmptyList
      action={
        props.search
          ? { label: 'Clear the search', onClick: props.onClear }
          : { label: 'Check again', onClick: props.onCheckAgain }
      }
      title={props.search ? `No listing matches “${props.search}”.` : 'You have no listings here.'}
    >
      {props.search
        ? 'Clear the search to see all your listings.'
        : 'Create a listing on the marketplace: it appears here with its review status. Check again once it is created.'}
    </EmptyList>
  )
}

/** "Show more listings", or that more are loading. */
function MoreListings() {
  const { creator } = useStores()
  const { nextPageToken, loadingMore } = useFields('creator', 'nextPageToken', 'loadingMore')
  return (
    <>
      {nextPageToken && !loadingMore && (
        <div className="load-more">
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => void creator.getState().loadMore()}
          >
            Show more listings
          </button>
        </div>
      )}
      {loadingMore && (
        <p className="card-sub" role="status">
          Loading more listings…
        </p>
      )}
    </>
  )
}

/** The review request opened from the listings: loading, failed, or shown. */
function OpenedReview() {
  const { creator } = useStores()
  const review = useCreator((s) => s.review)
  return (
    <>
      {review.state === 'loading' && (
        <p className="card-sub" role="status">
          Loading review request {review.id}…
        </p>
      )}
      {review.state === 'failed' && (
        <ErrorNotice
          error={review.error}
          onRetry={() => void creator.getState().showReview(review.id)}
          onDismiss={() => creator.getState().closeReview()}
        />
      )}
      {review.state === 'done' && (
        <ReviewRequestCard
          request={review.value}
          onClose={() => creator.getState().closeReview()}
        />
      )}
    </>
  )
}

function PrivateTemplateLookup() {
  const { creator } = useStores()
  const template = useCreator((s) => s.template)
  const [id, setId] = useState(template.state === 'idle' ? '' : template.id)
  const inputId = useId()
  return (
    <section className="card" aria-labelledby="template-title">
      <h2 id="template-title">My private template</h2>
      <p className="card-sub">
        A template only you can run. Enter its ID (your service shows it) to see its versions.
      </p>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault()
          if (id.trim()) void creator.getState().showTemplate(id.trim())
        }}
      >
        <label htmlFor={inputId}>Template ID</label>
        <input
          id={inputId}
          value={id}
          onChange={(e) => setId(e.target.value)}
          placeholder="e.g. weekly-status-report"
          autoComplete="off"
          spellCheck={false}
        />
        <button
          type="submit"
          className="btn btn-primary"
          disabled={!id.trim() || template.state === 'loading'}
        >
          Show
        </button>
      </form>
      {template.state === 'loading' && (
        <p className="card-sub" role="status">
          Loading {template.id}…
        </p>
      )}
      {template.state === 'failed' && (
        <ErrorNotice
          error={template.error}
          onRetry={() => void creator.getState().showTemplate(template.id)}
        />
      )}
      {template.state === 'done' && <PrivateTemplateCard template={template.value} />}
    </section>
  )
}
