import { memo } from 'react'
import type { RunOverview } from '../../shared/bridge'
import type { Artifact } from '../../shared/contract'
import { VirtualRow, VirtualTable } from '../components/VirtualTable'
import { useStores, useFields } from '../stores/context'
import { ArtifactPreview } from './ArtifactPreview'
import { kindLabel, taskRowLabel } from './run-view'
import { plural } from '../../shared/format/amounts'

const ARTIFACT_ROW = 44
const artifactKey = (artifact: Artifact) => artifact.artifactId

/** Drawn again only when the outputs changed, not at each change of the run's summary. */
export const ArtifactsCard = memo(
  ArtifactsCardView,
  (a, b) =>
    a.overview.detail.artifacts === b.overview.detail.artifacts &&
    a.overview.rowNumbers === b.overview.rowNumbers,
)

/** The run's outputs, one per row and port, each with a preview. */
function ArtifactsCardView(props: { overview: RunOverview }) {
  const { runDetail, bridge } = useStores()
  const artifacts = props.overview.detail.artifacts
  const { previewing, previews } = useFields('runDetail', 'previewing', 'previews')
  const rowNumbers = props.overview.rowNumbers
  const open: Artifact | undefined = artifacts.find((a) => a.artifactId === previewing)
  return (
    <section className="card" aria-labelledby="artifacts-title">
      <h3 id="artifacts-title">Outputs</h3>
      <p className="card-sub">
        {artifacts.length === 0
          ? 'No outputs yet.'
          : `${plural(artifacts.length, 'output')}. Preview text, JSON, CSV and images here; save them to open the others.`}
      </p>
      {artifacts.length > 0 && (
        <VirtualTable
          items={artifacts}
          itemKey={artifactKey}
          rowHeight={ARTIFACT_ROW}
          short
          overscan={10}
          label="Outputs of the run, scrollable"
          tableClassName="artifacts-table"
          columns={['Row', 'Output', 'Type', { label: 'Preview', hidden: true }]}
          renderRow={(artifact, place) => {
            const label = taskRowLabel(artifact.sourceRowIndex, rowNumbers)
            return (
              <VirtualRow place={place}>
                <td>{label}</td>
                <td>{artifact.portName || 'output'}</td>
                <td className="muted">{kindLabel(artifact.mimeType)}</td>
                <td>
                  <button
                    type="button"
                    className="btn btn-secondary btn-small"
                    aria-pressed={previewing === artifact.artifactId}
                    aria-label={`Preview ${artifact.portName || 'output'} of ${label}`}
                    onClick={() => void runDetail.getState().preview(artifact.artifactId)}
                  >
                    Preview
                  </button>
                </td>
              </VirtualRow>
            )
          }}
        />
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
