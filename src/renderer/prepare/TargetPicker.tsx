import { useState, type FormEvent } from 'react'
import { ErrorNotice } from '../components/ErrorNotice'
import { Field } from '../components/Field'
import { usePrepare, useStores } from '../stores/context'
import { describeAge } from '../stores/prepare/field-words'
import { CardHead } from '../components/CardParts'

/** Step 1: an official template (the app's list, or one typed by id) or a marketplace listing. */
export function TargetPicker() {
  const target = usePrepare((s) => s.target)
  const [kind, setKind] = useState<'template' | 'listing'>(target?.kind ?? 'template')
  const [typedId, setTypedId] = useState('')
  const [listingId, setListingId] = useState(target?.kind === 'listing' ? target.listingId : '')
  const [versionId, setVersionId] = useState(
    target?.kind === 'listing' ? target.listingVersionId : '',
  )

  return (
    <section className="card prep-card" aria-labelledby="target-title">
      <CardHead
        titleId="target-title"
        title="1. What to run"
        sub="An official template, or a listing from the marketplace."
      />
      <fieldset className="segmented">
        <legend className="visually-hidden">Kind of work</legend>
        {(['template', 'listing'] as const).map((k) => (
          <label key={k} className={`segment ${kind === k ? 'segment-on' : ''}`}>
            <input
              type="radio"
              name="target-kind"
              value={k}
              checked={kind === k}
              onChange={() => setKind(k)}
            />
            {k === 'template' ? 'Official template' : 'Marketplace listing'}
          </label>
        ))}
      </fieldset>

      {kind === 'template' ? (
        <TemplateChoice typedId={typedId} setTypedId={setTypedId} />
      ) : (
        <ListingChoice
          listingId={listingId}
          setListingId={setListingId}
          versionId={versionId}
          setVersionId={setVersionId}
        />
      )}
    </section>
  )
}

/** The official templates known here, and one typed by its id. */
function TemplateChoice(props: { typedId: string; setTypedId: (id: string) => void }) {
  const { prepare } = useStores()
  const target = usePrepare((s) => s.target)
  const templates = usePrepare((s) => s.templates)
  const loading = usePrepare((s) => s.templatesLoading)
  const offline = usePrepare((s) => s.templatesOffline)
  const error = usePrepare((s) => s.templatesError)
  const chosenTemplate = target?.kind === 'template' ? target.templateId : ''
  const { typedId, setTypedId } = props

  function useTyped(event: FormEvent) {
    event.preventDefault()
    if (typedId.trim()) void prepare.getState().chooseTemplate(typedId)
  }

  return (
    <>
      {offline && (
        <p className="prep-note" role="status">
          The service cannot be reached: these are the templates saved on this computer. You can
          still prepare and check workbooks; sending needs the service.
        </p>
      )}
      {error && (
        <ErrorNotice error={error} onRetry={() => void prepare.getState().loadTemplates()} />
      )}
      {loading && templates.length === 0 ? (
        <p className="prep-muted" role="status">
          Looking for templates…
        </p>
      ) : templates.length === 0 && !error ? (
        <p className="prep-muted">
          No template is saved on this computer for this environment yet. Type a template’s id below
          (your provider gives it to you).
        </p>
      ) : (
        <fieldset className="template-list">
          <legend className="visually-hidden">Official templates</legend>
          {templates.map((t) => (
            <label
              key={t.templateId}
              className={`template-option ${chosenTemplate === t.templateId ? 'template-option-on' : ''}`}
            >
              <input
                type="radio"
                name="template"
                value={t.templateId}
                checked={chosenTemplate === t.templateId}
                onChange={() => void prepare.getState().chooseTemplate(t.templateId)}
              />
              <span className="template-text">
                <span className="template-name">{t.name}</span>
                {t.description && <span className="template-desc">{t.description}</span>}
                <span className="template-meta">
                  {t.templateId}
                  {t.source === 'cached' && t.fetchedAtMs !== null
                    ? ` · saved ${describeAge(t.fetchedAtMs)}`
                    : ''}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
      )}
      <form className="inline-form" onSubmit={useTyped}>
        <Field
          label="Another template, by its id"
          value={typedId}
          onChange={(e) => setTypedId(e.target.value)}
          placeholder="e.g. invoice-extractor"
          spellCheck={false}
          autoComplete="off"
        />
        <button type="submit" className="btn btn-secondary" disabled={!typedId.trim()}>
          Use this template
        </button>
      </form>
    </>
  )
}

/** A marketplace listing, by its id and version. */
function ListingChoice(props: {
  listingId: string
  setListingId: (id: string) => void
  versionId: string
  setVersionId: (id: string) => void
}) {
  const { prepare } = useStores()
  const { listingId, setListingId, versionId, setVersionId } = props
  const [listingProblem, setListingProblem] = useState<Record<string, string>>({})

  function useListing(event: FormEvent) {
    event.preventDefault()
    const problems: Record<string, string> = {}
    if (!listingId.trim()) problems.listing = 'Enter the listing’s id.'
    if (!versionId.trim()) problems.version = 'Enter the version to run.'
    setListingProblem(problems)
    if (Object.keys(problems).length === 0)
      void prepare.getState().chooseListing(listingId, versionId)
  }

  return (
    <form className="listing-form" onSubmit={useListing} noValidate>
      <Field
        label="Listing id"
        value={listingId}
        onChange={(e) => setListingId(e.target.value)}
        error={listingProblem.listing}
        spellCheck={false}
        autoComplete="off"
      />
      <Field
        label="Version"
        hint="The version shown on the listing’s page."
        value={versionId}
        onChange={(e) => setVersionId(e.target.value)}
        error={listingProblem.version}
        spellCheck={false}
        autoComplete="off"
      />
      <button type="submit" className="btn btn-secondary">
        Use this listing
      </button>
    </form>
  )
}
