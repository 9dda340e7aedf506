import { memo, useCallback, useMemo } from 'react'
import type { RunOverview } from '../../shared/bridge'
import type { Artifact } from '../../shared/contract'
import { VirtualRow, VirtualTable, type RowPlace } from '../components/VirtualTable'
import { useRunDetail, useStores, useFields } from '../stores/context'
import { useRunWindow } from './use-run-window'
import { ArtifactPreview } from './ArtifactPreview'
import { kindLabel, taskRowLabel } from './run-view'
import { plural } from '../../shared/format/amounts'

const ARTIFACT_ROW = 44
const artifactKey = (artifact: Artifact) => artifact.artifactId

const OUTPUTS_TABLE = {
  rowHeight: ARTIFACT_ROW,
  short: true,
  overscan: 10,
  label: 'Outputs of the run, scrollable',
  tableClassName: 'artifacts-table',
  columns: ['Row', 'Output', 'Type', { label: 'Preview', hidden: true }],
}

/** One output: its row, name and kind, and its Preview button. */
function OutputRow(props: {
  artifact: Artifact
  place: RowPlace
  label: string
  pressed: boolean
}) {
  const { runDetail } = useStores()
  const { artifact, label } = props
  return (
    <VirtualRow place={props.place}>
      <td>{label}</td>
      <td>{artifact.portName || 'output'}</td>
      <td className="muted">{kindLabel(artifact.mimeType)}</td>
      <td>
        <button
          type="button"
          className="btn btn-secondary btn-small"
          aria-pressed={props.pressed}
          aria-label={`Preview ${artifact.portName || 'output'} of ${label}`}
          onClick={() => void runDetail.getState().preview(artifact.artifactId)}
        >
          Preview
        </button>
      </td>
    </VirtualRow>
  )
}

/** A big run's outputs, asked a page at a time as the list scrolls (nothing for a small run). */
function useOutputsWindow(overview: RunOverview) {
  const { bridge } = useStores()
  const version = useRunDetail((s) => s.rowsVersion)
  const { environment } = overview
  const { runId } = overview.detail.run
  const big = overview.rows !== undefined
  const ask = useCallback(
    async (from: number, count: number) => {
      if (!big) return { total: 0, items: [] }
      const answer = await bridge.api.getRunOutputs({ environment, runId, from, count })
      return { total: answer.total, items: answer.outputs }
    },
    [bridge, environment, runId, big],
  )
  const window = useRunWindow(ask, `${environment}\u0000${runId}\u0000${big}`, version, true)
  // Full pages in view are not asked again: the pushed count tells how many there are now.
  const total = Math.max(window.total, overview.rows?.outputs ?? 0)
  const positions = useMemo(() => Array.from({ length: total }, (_, i) => i), [total])
  return { ...window, positions }
}

/** Drawn again only when the outputs changed, not at each change of the run's summary. */
export const ArtifactsCard = memo(
  ArtifactsCardView,
  (a, b) =>
    a.overview.detail.artifacts === b.overview.detail.artifacts &&
    a.overview.rows === b.overview.rows &&
    a.overview.rowNumbers === b.overview.rowNumbers,
)

/** The run's outputs, one per row and port, each with a preview. */
function ArtifactsCardView(props: { overview: RunOverview }) {
  const { runDetail, bridge } = useStores()
  const artifacts = props.overview.detail.artifacts
  const { previewing, previews } = useFields('runDetail', 'previewing', 'previews')
  const rowNumbers = props.overview.rowNumbers
  const windowed = useOutputsWindow(props.overview)
  const count = props.overview.rows ? props.overview.rows.outputs : artifacts.length
  const open: Artifact | undefined = props.overview.rows
    ? windowed.find((a) => a.artifactId === previewing)
    : artifacts.find((a) => a.artifactId === previewing)
  const row = (artifact: Artifact, place: RowPlace) => (
    <OutputRow
      artifact={artifact}
      place={place}
      label={taskRowLabel(artifact.sourceRowIndex, rowNumbers)}
      pressed={previewing === artifact.artifactId}
    />
  )
  return (
    <section className="card" aria-labelledby="artifacts-title">
      <h3 id="artifacts-title">Outputs</h3>
      <p className="card-sub">
        {count === 0
          ? 'No outputs yet.'
          : `${plural(count, 'output')}. Preview text, JSON, CSV and images here; save them to open the others.`}
      </p>
      {count > 0 && props.overview.rows && (
        <VirtualTable
          {...OUTPUTS_TABLE}
          items={windowed.positions}
          itemKey={String}
          onRangeChange={windowed.showRange}
          renderRow={(index, place) => {
            const artifact = windowed.at(index)
            return artifact ? (
              row(artifact, place)
            ) : (
              <VirtualRow place={place}>
                <td className="muted" colSpan={4}>
                  Loading…
                </td>
              </VirtualRow>
            )
          }}
        />
      )}
      {count > 0 && !props.overview.rows && (
        <VirtualTable {...OUTPUTS_TABLE} items={artifacts} itemKey={artifactKey} renderRow={row} />
      )}
      {open && (
        <ArtifactPreview
          artifact={open}
          label={taskRowLabel(open.sourceRowIndex, rowNumbers)}
          state={previews[open.artifactId]}
          desktop={bridge.shell === 'electron'}
          onShow={() => void runDetail.getState().showInFolder('artifact', open.artifactId)}
          onClose={() => runDetail.getState().closePreview()}
          onRetry={() => {
            runDetail.setState((s) => {
              const next = { ...s.previews }
              delete next[open.artifactId]
              return { previews: next }
            })
            void runDetail.getState().preview(open.artifactId)
          }}
        />
      )}
    </section>
  )
}
