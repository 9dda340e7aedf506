import { Details } from '../components/CardParts'
import type { BridgeErrorInfo, SavedFileView } from '../../shared/bridge'
import type { RunTarget } from '../../shared/run-target'
import type { SchemaColumn, SchemaField } from '../../shared/contract'
import { ErrorNotice } from '../components/ErrorNotice'
import { useStores, useFields } from '../stores/context'
import { describeAge } from '../../shared/format/time'
import { describeFileKinds, describeType } from '../stores/prepare/field-words'
import { Card } from '../components/CardParts'

/** Fields in the order of the workbook's columns (run-wide fields last). */
export function orderedFields(columns: SchemaColumn[], fields: SchemaField[]): SchemaField[] {
  const order = new Map(columns.map((c) => [c.fieldKey, c.order]))
  return [...fields].sort((a, b) => {
    if ((a.scope === 'run') !== (b.scope === 'run')) return a.scope === 'run' ? 1 : -1
    return (order.get(a.key) ?? 1e9) - (order.get(b.key) ?? 1e9)
  })
}

/** Step 2: what the workbook must hold, as a readable form, and "Get the input workbook". */
export function SchemaForm() {
  const {
    target,
    template,
    templateLoading: loading,
    listing,
  } = useFields('prepare', 'target', 'template', 'templateLoading', 'listing')

  if (!target) {
    return (
      <section className="card prep-card" aria-labelledby="schema-title">
        <h2 id="schema-title">2. The input form</h2>
        <p className="prep-muted">
          Choose a template or a listing first: its form shows here, and you can get a workbook to
          fill in. A workbook the app made can be dropped at any time: it says what it is for.
        </p>
      </section>
    )
  }

  return (
    <Card
      titleId="schema-title"
      title={
        <>
          2.{' '}
          {template
            ? template.name
            : target.kind === 'listing'
              ? listing?.displayName || 'Listing'
              : 'Template'}
        </>
      }
      sub={
        target.kind === 'template'
          ? `Template ${target.templateId}${template?.version ? `, version ${template.version}` : ''}`
          : `Listing ${target.listingId}, version ${target.listingVersionId}`
      }
      className="prep-card"
      busy={loading}
      tools={<GetWorkbook />}
    >
      <TemplateDetails />
      {target.kind === 'listing' && <ListingDetails target={target} />}
    </Card>
  )
}

/** The chosen template's form: loading, offline copy, error, or its fields. */
function TemplateDetails() {
  const { prepare } = useStores()
  const {
    target,
    template,
    templateLoading: loading,
    templateError: error,
  } = useFields('prepare', 'target', 'template', 'templateLoading', 'templateError')
  return (
    <>
      {template?.fromCache && (
        <p className="prep-note" role="status">
          Offline: this is the copy saved on this computer {describeAge(template.fetchedAtMs)}. It
          may have changed on the service since.
        </p>
      )}
      {loading && (
        <p className="prep-muted" role="status">
          Loading the template’s form…
        </p>
      )}
      {error && (
        <ErrorNotice
          error={error}
          onRetry={
            target?.kind === 'template'
              ? () => void prepare.getState().chooseTemplate(target.templateId)
              : undefined
          }
        />
      )}
      {template && (
        <>
          {template.description && <p className="schema-desc">{template.description}</p>}
          {template.instructions.length > 0 && (
            <ul className="schema-instructions">
              {template.instructions.map((line, i) => (
                <li key={i}>{line}</li>
              ))}
            </ul>
          )}
          <FieldList columns={template.columns} fields={template.fields} />
        </>
      )}
    </>
  )
}

/** The chosen listing: loading, error, or its price, terms, version and form. */
function ListingDetails(props: { target: Extract<RunTarget, { kind: 'listing' }> }) {
  const { prepare } = useStores()
  const { target } = props
  const { listing, listingLoading, listingError } = useFields(
    'prepare',
    'listing',
    'listingLoading',
    'listingError',
  )
  return (
    <>
      {listingLoading && (
        <p className="prep-muted" role="status">
          Looking up the listing…
        </p>
      )}
      {listingError && (
        <ErrorNotice
          error={listingError}
          onRetry={() =>
            void prepare.getState().chooseListing(target.listingId, target.listingVersionId)
          }
        />
      )}
      {listing && (
        <>
          {listing.description && <p className="schema-desc">{listing.description}</p>}
          <dl className="listing-facts">
            <div>
              <dt>Price</dt>
              <dd>
                {listing.taskFixedFeeT !== null
                  ? `${listing.taskFixedFeeT.toLocaleString('en-US')} ${listing.unitLabel} per row`
                  : 'Not shown to your account: it is known once a run ends (send a pilot first).'}
              </dd>
            </div>
            <div>
              <dt>Terms</dt>
              <dd>
                {listing.pricingRuleVersion ? (
                  <>
                    The seller’s current pricing terms
                    <Details>
                      Pricing terms <code>{listing.pricingRuleVersion}</code>
                    </Details>
                  </>
                ) : (
                  'Not shown to your account'
                )}
              </dd>
            </div>
            <div>
              <dt>Version</dt>
              <dd>
                {listing.publishedVersionId || listing.listingVersionId}
                {target.listingVersionId !== listing.publishedVersionId &&
                  listing.publishedVersionId &&
                  ` (you chose ${target.listingVersionId}, which is not the published version)`}
              </dd>
            </div>
          </dl>
          {!listing.executable && (
            <p className="prep-note" role="status">
              This listing cannot be run right now (it is not published, on sale and available at
              this version).
            </p>
          )}
          <p className="prep-muted">{listing.sourceNote}</p>
          {listing.fields.length > 0 && (
            <FieldList columns={listing.columns} fields={listing.fields} />
          )}
        </>
      )}
    </>
  )
}

export function FieldList(props: { columns: SchemaColumn[]; fields: SchemaField[] }) {
  const fields = orderedFields(props.columns, props.fields)
  const headers = new Map(props.columns.map((c) => [c.fieldKey, c.headerLabel]))
  return (
    <dl className="field-list">
      {fields.map((f) => (
        <div key={f.key} className="field-item">
          <dt>
            <span className="field-name">{headers.get(f.key) || f.label || f.key}</span>
            {f.required ? (
              <span className="tag tag-required">Required</span>
            ) : (
              <span className="tag tag-quiet">Optional</span>
            )}
            {f.scope === 'run' && <span className="tag">Once for the whole run</span>}
          </dt>
          <dd>
            <span className="field-type">{describeType(f)}</span>
            {f.inputHint && <span className="field-hint-text">{f.inputHint}</span>}
            {f.businessHint && <span className="field-hint-text">{f.businessHint}</span>}
            {f.type === 'enum' && f.enumValues.length > 0 && (
              <span className="field-values">One of: {f.enumValues.join(', ')}</span>
            )}
            {f.type === 'file' && (
              <span className="field-values">
                {describeFileKinds(f) || 'A file path (relative to the workbook) or a web address.'}
              </span>
            )}
            {f.examples.length > 0 && (
              <span className="field-examples">For example: {f.examples.join(' · ')}</span>
            )}
          </dd>
        </div>
      ))}
    </dl>
  )
}

function GetWorkbook() {
  const { prepare } = useStores()
  const {
    workbookSaving: saving,
    workbookSaved: saved,
    workbookSaveError: error,
  } = useFields('prepare', 'workbookSaving', 'workbookSaved', 'workbookSaveError')
  return (
    <div className="get-workbook">
      <button
        type="button"
        className="btn btn-primary"
        onClick={() => void prepare.getState().getInputWorkbook()}
        disabled={saving}
      >
        {saving ? 'Making the workbook…' : 'Get the input workbook'}
      </button>
      <SavedLine
        saved={saved}
        error={error}
        onDismiss={() => prepare.setState({ workbookSaveError: null })}
      />
    </div>
  )
}

/**
 * Where a file the app made went, and "Open" where the desktop can open it; or, until dismissed,
 * why it could not be made.
 */
export function SavedLine(props: {
  saved: SavedFileView | null
  error: BridgeErrorInfo | null
  onDismiss: () => void
}) {
  const { prepare } = useStores()
  const { saved, error } = props
  return (
    <>
      {saved && (
        <p className="saved-line" role="status">
          {saved.kind === 'path' ? (
            <>
              Saved as <span className="mono">{saved.path}</span>
              {saved.canOpen && (
                <button
                  type="button"
                  className="btn btn-small btn-quiet"
                  onClick={() => void prepare.getState().openSaved(saved.path)}
                >
                  Open
                </button>
              )}
            </>
          ) : (
            <>
              Downloaded “{saved.fileName}”: find it in your browser’s downloads, open it in Excel
              or LibreOffice.
            </>
          )}
        </p>
      )}
      {error && <ErrorNotice error={error} onDismiss={props.onDismiss} />}
    </>
  )
}
