import { memo, useCallback, useMemo } from 'react'
import type { BatchRowState, BatchRowView, BatchView } from '../../shared/bridge'
import { sendKindWords } from '../../shared/format/batch-words'
import { VirtualRow, VirtualTable, type RowPlace } from '../components/VirtualTable'
import { useFields, useStores } from '../stores/context'
import { rowAt } from '../stores/batch-pages'

/** Each state in words, with the tone of its badge. */
const STATE_WORDS: Record<BatchRowState, { label: string; tone: string }> = {
  'not-sent': { label: 'Not sent', tone: 'waiting' },
  'set-aside': { label: 'Set aside', tone: 'warn' },
  pending: { label: 'Running', tone: 'active' },
  succeeded: { label: 'Succeeded', tone: 'good' },
  failed: { label: 'Failed', tone: 'bad' },
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

const BATCH_TABLE = {
  itemKey: (index: number) => String(index),
  rowHeight: 56,
  label: 'Rows of the sheet, scrollable',
  tableClassName: 'batch-table',
  // Rows drawn beyond the view: a drag of the scroll bar over 100,000 rows shows a new screen
  // at every frame, each row of it new, so every row drawn past the view is work in that frame.
  overscan: 2,
  columns: [
    { label: 'Choose', hidden: true },
    { label: 'Sheet row', numeric: true },
    'State',
    'Output kept',
    'Run',
  ],
}

/**
 * The sheet's rows under the chosen filter, virtualized: only the positions in view are drawn,
 * and their rows are asked for a page at a time as the list scrolls.
 */
export function BatchRows(props: { batch: BatchView }) {
  const { batch: store } = useStores()
  const { total, pages, chosen } = useFields('batch', 'total', 'pages', 'chosen')
  // Positions only: a row is looked up in its page when drawn.
  const positions = useMemo(() => Array.from({ length: Math.max(0, total) }, (_, i) => i), [total])
  const showRange = useCallback(
    (first: number, last: number) => void store.getState().showRange(first, last),
    [store],
  )
  const kinds = useMemo(
    () => new Map(props.batch.runs.map((r) => [r.runId, r.kind])),
    [props.batch.runs],
  )
  return (
    <VirtualTable
      {...BATCH_TABLE}
      items={positions}
      onRangeChange={showRange}
      recycle
      renderRow={(index, place) => {
        const row = rowAt(pages, index)
        return (
          <BatchRow
            row={row}
            place={place}
            chosen={row ? chosen.has(row.sheetRow) : false}
            kind={row ? (kinds.get(row.keptRunId || row.runId) ?? '') : ''}
          />
        )
      }}
    />
  )
}

/** What a row whose page is on its way shows, in the same cells as a row (its box hidden). */
const LOADING: BatchRowView = {
  sheetRow: 0,
  state: 'not-sent',
  sends: 0,
  runId: '',
  keptRunId: '',
  problems: [],
  preview: '',
}

/**
 * One sheet row: its box to choose it, its number, state, kept output and the run it came from;
 * "Loading…" in the same cells while its page is on its way, so its nodes are kept (only their
 * text changes) when its page comes or another row takes its place on screen.
 */
const BatchRow = memo(function BatchRow(props: {
  row: BatchRowView | undefined
  place: RowPlace
  chosen: boolean
  /** How the run shown was sent ('' when the row was never sent). */
  kind: string
}) {
  const { batch, nav } = useStores()
  const { place } = props
  const row = props.row ?? LOADING
  const loading = !props.row
  const state = loading ? { label: 'Loading…', tone: 'loading' } : STATE_WORDS[row.state]
  const runId = row.keptRunId || row.runId
  const problems = row.problems.join(' ')
  const data = loading
    ? { 'data-loading': '' }
    : { 'data-sheet-row': String(row.sheetRow), 'data-state': row.state }
  return (
    <VirtualRow place={place} {...data}>
      <td>
        <input
          type="checkbox"
          checked={props.chosen}
          disabled={loading}
          aria-label={`Choose sheet row ${row.sheetRow}`}
          title="Shift-click to choose every row from the last one clicked"
          // A click (or Space) flips the box; with Shift, the rows from the last one clicked.
          onClick={(e) => void batch.getState().choose(place.index, e.shiftKey)}
          onChange={() => {}}
        />
      </td>
      <td className="num">{loading ? '' : row.sheetRow}</td>
      <td>
        <span className="batch-state">
          <span className={`badge badge-${state.tone}`}>
            <span className="badge-dot" aria-hidden="true" />
            <span className="badge-label">{state.label}</span>
          </span>
          {row.sends > 1 && (
            <span className="batch-again" title={`Sent ${row.sends} times`}>
              Sent again
            </span>
          )}
        </span>
        {problems && (
          <span className="run-sub batch-problems" title={problems}>
            {problems}
          </span>
        )}
      </td>
      <td>
        <span className="batch-preview" title={row.preview || undefined}>
          {row.preview || (loading ? '' : '—')}
        </span>
      </td>
      <td>
        {runId ? (
          <button
            type="button"
            className="link-button batch-run"
            data-run-id={runId}
            title={`Open the run this row ${row.keptRunId ? 'kept its output from' : 'was last sent in'}`}
            onClick={() => nav.getState().openRun(runId)}
          >
            {capitalized(sendKindWords(props.kind))}
          </button>
        ) : (
          <span className="run-sub">{loading ? '' : '—'}</span>
        )}
      </td>
    </VirtualRow>
  )
})
