import { useState } from 'react'
import type { CatalogEntry } from '../../shared/bridge'
import { usePrepare, useStores } from '../stores/context'
import { entryFacts, catalogVersionWords } from './catalog-words'

/**
 * The listings known here (from the user's runs, the creator's own listings, this computer's
 * sends), each with the version that would be run and, when more are known, the choice of it.
 */
export function ListingEntries(props: { items: CatalogEntry[]; unitLabel: string }) {
  const { prepare } = useStores()
  const target = usePrepare((s) => s.target)
  const [chosenVersions, setChosenVersions] = useState<Record<string, string>>({})
  const versionOf = (entry: CatalogEntry) => chosenVersions[entry.id] ?? entry.versionId ?? ''

  function choose(entry: CatalogEntry, versionId: string) {
    setChosenVersions((all) => ({ ...all, [entry.id]: versionId }))
    if (versionId) void prepare.getState().chooseListing(entry.id, versionId)
  }

  return (
    <fieldset className="template-list">
      <legend className="visually-hidden">Listings known here</legend>
      {props.items.map((entry) => {
        const on = target?.kind === 'listing' && target.listingId === entry.id
        return (
          <div key={entry.id} className={`template-option ${on ? 'template-option-on' : ''}`}>
            <input
              type="radio"
              name="listing"
              id={`listing-${entry.id}`}
              value={entry.id}
              checked={on}
              disabled={!versionOf(entry) || Boolean(entry.notRunnable)}
              onChange={() => choose(entry, versionOf(entry))}
            />
            <span className="template-text">
              <label className="template-name" htmlFor={`listing-${entry.id}`}>
                {entry.name}
              </label>
              {entry.description && <span className="template-desc">{entry.description}</span>}
              <span className="template-meta">
                {entry.id}
                {entry.versions.length === 1 ? ` · version ${versionOf(entry)}` : ''}
              </span>
              <span className="catalog-facts">{entryFacts(entry, props.unitLabel)}</span>
              {entry.notRunnable && (
                <span className="catalog-not-runnable">
                  {entry.notRunnable}: it cannot be run, so it is not offered.
                </span>
              )}
              {entry.versions.length > 1 && !entry.notRunnable && (
                <label className="catalog-version">
                  Version
                  <select
                    value={versionOf(entry)}
                    onChange={(e) => choose(entry, e.target.value)}
                    aria-label={`Version of ${entry.name}`}
                  >
                    {entry.versions.map((v) => (
                      <option key={v.versionId} value={v.versionId}>
                        {catalogVersionWords(v)}
                      </option>
                    ))}
                  </select>
                </label>
              )}
            </span>
          </div>
        )
      })}
    </fieldset>
  )
}
