import { useState, type FormEvent } from 'react'
import type { CatalogEntry } from '../../shared/bridge'
import { readRunLink, type RunLinkKind, type RunLinkReading } from '../../shared/run-link'
import { Field } from '../components/Field'
import { usePrepare, useStores } from '../stores/context'
import { offeredVersionWords } from './catalog-words'

/** Where the service's answer for the chosen template stands, for the paste's words. */
type TemplateLookup = 'not-chosen' | 'looking' | 'found' | 'failed'

/** How far the template `templateId` was looked up on the service, as step 2 shows it. */
function useTemplateLookup(templateId: string | undefined): TemplateLookup {
  return usePrepare((s) => {
    if (!templateId || s.target?.kind !== 'template' || s.target.templateId !== templateId)
      return 'not-chosen'
    if (s.templateError) return 'failed'
    if (s.template?.templateId === templateId) return 'found'
    return 'looking'
  })
}

/**
 * What was recognised in the pasted text, in words. A template is "found" only once the service
 * gave its form, so these words never disagree with step 2.
 */
function recognisedWords(
  reading: RunLinkReading,
  known: CatalogEntry | undefined,
  lookup: TemplateLookup,
): string {
  const named = known && known.name !== known.id ? ` (${known.name})` : ''
  if (reading.kind === 'template') {
    const id = `“${reading.templateId}”${named}`
    if (lookup === 'found') return `Found the template ${id}.`
    if (lookup === 'looking') return `Looking for the template ${id} on the service…`
    if (lookup === 'failed') return `The template ${id} could not be opened: see step 2.`
    return `The template id ${id}: choose Use this template to open it.`
  }
  const version = reading.versionId ? ` and its version “${reading.versionId}”` : ''
  return `Found the listing “${reading.listingId}”${named}${version}.`
}

/** Where the missing version of a pasted listing comes from, or that it is still missing. */
function versionNote(known: CatalogEntry | undefined): string {
  return known?.versionId ? offeredVersionWords(known) : 'Still missing: the listing’s version.'
}

/**
 * "Paste a link or id": a link copied from the service's website, or a bare id. What was
 * recognised is shown as it is typed; a listing's missing version is taken from what is known
 * (the latest one the user ran, or the creator's listing), else asked for.
 */
export function PasteTarget(props: { kind: RunLinkKind; catalog: CatalogEntry[] }) {
  const { prepare } = useStores()
  const [text, setText] = useState('')
  const [typedVersion, setTypedVersion] = useState('')
  const reading = text.trim() ? readRunLink(text, props.kind) : null
  const found = reading?.kind ? reading : null
  const known = found
    ? props.catalog.find(
        (e) => e.kind === found.kind && e.id === (found.listingId ?? found.templateId),
      )
    : undefined
  const needsVersion = found?.kind === 'listing' && !found.versionId
  const version = found?.versionId ?? (known?.versionId || typedVersion.trim())
  const ready = found !== null && (found.kind === 'template' || Boolean(version))
  const kind = found?.kind ?? props.kind
  const lookup = useTemplateLookup(found?.templateId ?? undefined)

  function use(event: FormEvent) {
    event.preventDefault()
    if (!found || !ready) return
    if (found.kind === 'template') void prepare.getState().chooseTemplate(found.templateId!)
    else void prepare.getState().chooseListing(found.listingId!, version)
  }

  return (
    <form className="paste-target" onSubmit={use} noValidate>
      <div className="paste-row">
        <Field
          label="Paste a link or id"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={
            props.kind === 'template'
              ? 'e.g. invoice-extractor, or a link'
              : 'e.g. https://…/listings/ID/versions/VERSION'
          }
          spellCheck={false}
          autoComplete="off"
          error={reading?.problem ?? undefined}
        />
        {needsVersion && !known?.versionId && (
          <Field
            label="Version"
            hint="It is on the listing’s page."
            value={typedVersion}
            onChange={(e) => setTypedVersion(e.target.value)}
            spellCheck={false}
            autoComplete="off"
          />
        )}
        <button type="submit" className="btn btn-secondary" disabled={!ready}>
          {kind === 'listing' ? 'Use this listing' : 'Use this template'}
        </button>
      </div>
      <p className={`paste-found ${found ? '' : 'paste-found-idle'}`} role="status">
        {found
          ? `${recognisedWords(found, known, lookup)}${needsVersion ? ` ${versionNote(known)}` : ''}`
          : `A link to the ${props.kind} copied from the service’s website, or its id.`}
      </p>
    </form>
  )
}
