import { useState } from 'react'
import type { CatalogEntry } from '../../shared/bridge'
import { ErrorNotice } from '../components/ErrorNotice'
import { usePrepare, useStores } from '../stores/context'
import { describeAge } from '../../shared/format/time'
import { Card } from '../components/CardParts'
import { ListingEntries } from './CatalogEntries'
import { entryFacts } from './catalog-words'
import { PasteTarget } from './PasteTarget'
import { useCatalog, type CatalogState } from './use-catalog'

/**
 * Step 1: what to run. The templates and listings known here (the service has no catalog: they
 * come from the user's runs, the creator's listings, this computer's sends and the Sandbox), and
 * "Paste a link or id" for anything else.
 */
export function TargetPicker() {
  const target = usePrepare((s) => s.target)
  const [kind, setKind] = useState<'template' | 'listing'>(target?.kind ?? 'template')
  const catalog = useCatalog()

  return (
    <Card
      titleId="target-title"
      title="1. What to run"
      sub="An official template, or a listing from the marketplace."
      className="prep-card"
    >
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
        <TemplateChoice catalog={catalog} />
      ) : (
        <ListingChoice catalog={catalog} />
      )}
      <PasteTarget key={kind} kind={kind} catalog={catalog.items} />
    </Card>
  )
}

/** One official template known here, as a choice. */
function TemplateOption(props: { entry: CatalogEntry; facts: string; chosen: boolean }) {
  const { prepare } = useStores()
  const { entry } = props
  return (
    <label className={`template-option ${props.chosen ? 'template-option-on' : ''}`}>
      <input
        type="radio"
        name="template"
        value={entry.id}
        checked={props.chosen}
        onChange={() => void prepare.getState().chooseTemplate(entry.id)}
      />
      <span className="template-text">
        <span className="template-name">{entry.name}</span>
        {entry.description && <span className="template-desc">{entry.description}</span>}
        <span className="template-meta">{entry.id}</span>
        {props.facts && <span className="catalog-facts">{props.facts}</span>}
      </span>
    </label>
  )
}

/** A template known only by its form or the store's list, as a catalog entry to choose. */
function templateEntry(
  t: { templateId: string; name: string; description: string },
  source: 'sandbox' | 'saved-schema',
): CatalogEntry {
  const entry = { kind: 'template', id: t.templateId, name: t.name, description: t.description }
  return { ...entry, kind: 'template', versions: [], source, sources: [], rowsRun: 0 }
}

/** The official templates known here: from the catalog, else the ones the store loaded. */
function TemplateChoice(props: { catalog: CatalogState }) {
  const { prepare } = useStores()
  const target = usePrepare((s) => s.target)
  const templates = usePrepare((s) => s.templates)
  const loading = usePrepare((s) => s.templatesLoading)
  const offline = usePrepare((s) => s.templatesOffline)
  const error = usePrepare((s) => s.templatesError)
  const chosenTemplate = target?.kind === 'template' ? target.templateId : ''
  // A template opened by its link or id is known here from then on, whatever the list says.
  const opened = usePrepare((s) => s.template)
  const known = props.catalog.items.filter((e) => e.kind === 'template')
  const options =
    known.length > 0
      ? known.map((entry) => ({ entry, facts: entryFacts(entry, props.catalog.unitLabel) }))
      : templates.map((t) => ({
          entry: templateEntry(t, t.source === 'builtin' ? 'sandbox' : 'saved-schema'),
          facts:
            t.source === 'cached' && t.fetchedAtMs !== null
              ? `saved ${describeAge(t.fetchedAtMs)}`
              : '',
        }))
  if (opened && !options.some((o) => o.entry.id === opened.templateId)) {
    options.push({ entry: templateEntry(opened, 'saved-schema'), facts: '' })
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
      {loading && options.length === 0 ? (
        <p className="prep-muted" role="status">
          Looking for templates…
        </p>
      ) : options.length === 0 && !error ? (
        <p className="prep-muted">
          No template is saved on this computer for this environment yet, and none is in your runs.
          Paste a link to one below, or its id (your provider gives it to you).
        </p>
      ) : (
        <fieldset className="template-list">
          <legend className="visually-hidden">Official templates</legend>
          {options.map(({ entry, facts }) => (
            <TemplateOption
              key={entry.id}
              entry={entry}
              facts={facts}
              chosen={chosenTemplate === entry.id}
            />
          ))}
        </fieldset>
      )}
    </>
  )
}

/** The listings known here, each with the version that would be run. */
function ListingChoice(props: { catalog: CatalogState }) {
  const listings = props.catalog.items.filter((e) => e.kind === 'listing')
  if (!props.catalog.loaded) {
    return (
      <p className="prep-muted" role="status">
        Looking for listings…
      </p>
    )
  }
  if (listings.length === 0) {
    return (
      <p className="prep-muted">
        No listing is known here yet: none is in your runs or among your own listings. Paste a link
        to one below, or its id.
      </p>
    )
  }
  return <ListingEntries items={listings} unitLabel={props.catalog.unitLabel} />
}
