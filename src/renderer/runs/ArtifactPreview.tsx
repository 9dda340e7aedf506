import type { ArtifactPreviewView } from '../../shared/bridge'
import type { Artifact } from '../../shared/contract'
import { ErrorNotice } from '../components/ErrorNotice'
import type { PreviewState } from '../stores/run-detail/run-detail-store'
import { useRunDetail } from '../stores/context'
import { CopyablePath } from './CopyablePath'

/** The preview of one output: text, JSON, a CSV table or an image, bounded by the engine. */
export function ArtifactPreview(props: {
  artifact: Artifact
  label: string
  state: PreviewState | undefined
  onClose: () => void
  onRetry: () => void
  /** Shows the saved file in its folder (desktop) or says where it is (browser). */
  onShow: () => void
  desktop: boolean
}) {
  const { state } = props
  const shown = useRunDetail((s) => (s.shown?.item === 'artifact' ? s.shown : null))
  const showError = useRunDetail((s) => (s.showError?.item === 'artifact' ? s.showError : null))
  return (
    <section className="preview" aria-labelledby="preview-title">
      <div className="preview-head">
        <h4 id="preview-title">
          Preview: {props.label} · {props.artifact.portName || 'output'}
        </h4>
        <span className="preview-actions">
          <button type="button" className="btn btn-secondary btn-small" onClick={props.onShow}>
            {props.desktop ? 'Show in folder' : 'Where is it saved?'}
          </button>
          <button type="button" className="btn btn-quiet btn-small" onClick={props.onClose}>
            Close preview
          </button>
        </span>
      </div>
      {!state || state.state === 'loading' ? (
        <p className="card-sub" role="status">
          Loading the preview…
        </p>
      ) : state.state === 'failed' ? (
        <ErrorNotice error={state.error} onRetry={props.onRetry} />
      ) : (
        <PreviewBody value={state.value} />
      )}
      {shown && shown.artifactId === props.artifact.artifactId && !shown.shown && (
        <CopyablePath label="This output is saved in" path={shown.path} />
      )}
      {showError && <ErrorNotice error={showError} />}
    </section>
  )
}

function PreviewBody(props: { value: ArtifactPreviewView }) {
  const { value } = props
  const cut = value.truncated ? (
    <p className="card-sub">Only the beginning is shown. Save the outputs to see all of it.</p>
  ) : null
  if (value.kind === 'none')
    return (
      <p className="card-sub">
        {value.note} Save the outputs, then find it with the button above and open it with the
        program you choose.
      </p>
    )
  if (value.kind === 'image')
    return (
      <img className="preview-image" src={value.dataUrl} alt={`Output image (${value.mimeType})`} />
    )
  if (value.kind === 'csv' && value.table.length > 0) {
    const [head, ...rows] = value.table
    return (
      <>
        <div className="preview-scroll" tabIndex={0} role="region" aria-label="CSV preview">
          <table className="preview-table">
            <thead>
              <tr>
                {head!.map((cell, i) => (
                  <th key={i} scope="col">
                    {cell}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, c) => (
                    <td key={c}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {cut}
      </>
    )
  }
  return (
    <>
      {value.note && <p className="card-sub">{value.note}</p>}
      <pre className="preview-text" tabIndex={0} aria-label="Output text">
        {value.text || '(empty)'}
      </pre>
      {cut}
    </>
  )
}
