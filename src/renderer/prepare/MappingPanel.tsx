/**
 * "Your column -> Template field": shown when a dropped sheet's headers are not the template's
 * own. Each of the user's columns with its first values, the field it feeds (a select, "Not
 * used" for extra columns) and how sure the proposal is. A required field left without a column
 * blocks, with a message that names it. Confirming checks the sheet again with the mapping, and
 * the engine remembers it for the next sheet with the same headers.
 */
import { useMemo, useState } from 'react'
import type { ColumnMappingView, MappedColumnView } from '../../shared/bridge'
import { usePrepare, useStores } from '../stores/context'
import '../styles/mapping.css'

type Choices = Record<string, string | null>

const NOT_USED = ''

function choicesOf(mapping: ColumnMappingView): Choices {
  return Object.fromEntries(mapping.columns.map((c) => [c.header, c.fieldKey]))
}

/** What stops the mapping from being used: required fields without a column, doubled fields. */
function blockers(mapping: ColumnMappingView, choices: Choices): string[] {
  const chosen = Object.values(choices).filter((k): k is string => k !== null)
  const label = (key: string) => mapping.fields.find((f) => f.key === key)?.label ?? key
  const out = mapping.fields
    .filter((f) => f.required && !chosen.includes(f.key))
    .map((f) => `The required field “${f.label}” has no column. Choose the column that holds it.`)
  const doubled = chosen.filter((k, i) => chosen.indexOf(k) !== i)
  for (const key of new Set(doubled))
    out.push(`Two columns feed “${label(key)}”. Choose one, and set the other to “Not used”.`)
  return out
}

/** The confidence pill: the proposal's, or the user's own choice (confirmed, or just changed). */
function confidenceWords(confidence: number, mine: 'confirmed' | 'changed' | null): string {
  if (mine === 'confirmed') return 'Confirmed'
  if (mine === 'changed') return 'Your choice'
  if (confidence >= 0.95) return 'Sure'
  if (confidence >= 0.7) return 'Likely'
  return 'A guess'
}

/** What the mapping is; which row holds the headers is said once, among the read's notices. */
function Headline(props: { mapping: ColumnMappingView }) {
  const { mapping } = props
  if (mapping.source === 'remembered')
    return (
      <p className="prep-muted">
        These columns were matched the way you confirmed last time for this sheet. Change any of
        them below if needed.
      </p>
    )
  if (mapping.source === 'given')
    return <p className="prep-muted">Your mapping is in use and remembered for this sheet.</p>
  return (
    <p className="prep-muted">
      The sheet’s headers are not the template’s own. Check which of your columns feeds which field,
      then use the mapping to check the rows.
      {mapping.ambiguous ? ' Some columns could fit more than one field: look at those first.' : ''}
    </p>
  )
}

/** One of the user's columns: its header, the field it feeds, its first values, the confidence. */
function MappingRow(props: {
  column: MappedColumnView
  mapping: ColumnMappingView
  choice: string | null
  onChoose: (key: string | null) => void
}) {
  const { column, mapping, choice: key } = props
  const unchanged = key === column.fieldKey
  const confirmed = unchanged && mapping.source !== 'proposed'
  const sure = unchanged && !confirmed ? column.confidence : 1
  const mine = confirmed ? 'confirmed' : unchanged ? null : 'changed'
  return (
    <tr>
      <th scope="row">
        <span className="mapping-letter">{column.letter}</span> {column.header}
      </th>
      <td aria-hidden="true" className="mapping-arrow">
        →
      </td>
      <td>
        <select
          aria-label={`Template field for “${column.header}”`}
          value={key ?? NOT_USED}
          onChange={(e) => props.onChoose(e.target.value || null)}
        >
          <option value={NOT_USED}>Not used</option>
          {mapping.fields.map((f) => (
            <option key={f.key} value={f.key}>
              {f.label}
              {f.required ? ' (required)' : ''}
            </option>
          ))}
        </select>
      </td>
      <td className="mapping-samples">
        {column.samples.filter((s) => s !== '').join(' · ') || '—'}
      </td>
      <td>
        {key !== null && (
          <span
            className={`mapping-sure ${sure >= 0.95 ? 'sure' : sure >= 0.7 ? 'likely' : 'guess'}`}
          >
            {confidenceWords(sure, mine)}
          </span>
        )}
      </td>
    </tr>
  )
}

export function MappingPanel(props: { mapping: ColumnMappingView }) {
  const { mapping } = props
  const { prepare } = useStores()
  const reading = usePrepare((s) => s.checkState === 'reading')
  const initial = useMemo(() => choicesOf(mapping), [mapping])
  const [choices, setChoices] = useState<Choices>(initial)
  const problems = blockers(mapping, choices)
  const changed = JSON.stringify(choices) !== JSON.stringify(initial)
  const needsConfirm = mapping.source === 'proposed' || changed
  return (
    <section className="mapping" aria-labelledby="mapping-title">
      <h3 id="mapping-title" className="prep-subtitle">
        Your columns and the template’s fields
      </h3>
      <Headline mapping={mapping} />
      <div className="mapping-scroll">
        <table className="mapping-table">
          <thead>
            <tr>
              <th scope="col">Your column</th>
              <th scope="col" aria-hidden="true" />
              <th scope="col">Template field</th>
              <th scope="col">First values</th>
              <th scope="col">Confidence</th>
            </tr>
          </thead>
          <tbody>
            {mapping.columns.map((column) => (
              <MappingRow
                key={column.letter}
                column={column}
                mapping={mapping}
                choice={choices[column.header] ?? null}
                onChoose={(key) => setChoices({ ...choices, [column.header]: key })}
              />
            ))}
          </tbody>
        </table>
      </div>
      {problems.length > 0 && (
        <ul className="mapping-problems" role="alert">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      {needsConfirm && (
        <div className="prep-actions">
          <button
            type="button"
            className="btn btn-primary"
            disabled={problems.length > 0 || reading}
            onClick={() => void prepare.getState().confirmMapping(choices)}
          >
            Use this mapping
          </button>
          {changed && (
            <button type="button" className="btn btn-quiet" onClick={() => setChoices(initial)}>
              Undo changes
            </button>
          )}
        </div>
      )}
    </section>
  )
}
