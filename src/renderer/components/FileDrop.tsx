import { useRef, useState, type DragEvent } from 'react'
import type { BridgeErrorInfo, DroppedFileInfo } from '../../shared/bridge'
import { toFileRef } from '../bridge/files'
import { useStores } from '../stores/context'
import { errorInfo } from '../stores/errors'
import { ErrorNotice } from './ErrorNotice'

/**
 * Drop a workbook (or choose one). In the desktop app the engine reads it from disk by its
 * path; in a browser the page sends its content.
 */
export function FileDrop() {
  const { bridge } = useStores()
  const input = useRef<HTMLInputElement>(null)
  const [over, setOver] = useState(false)
  const [busy, setBusy] = useState(false)
  const [file, setFile] = useState<DroppedFileInfo | null>(null)
  const [error, setError] = useState<BridgeErrorInfo | null>(null)

  async function take(files: FileList | null) {
    const first = files?.[0]
    if (!first) return
    setBusy(true)
    setError(null)
    try {
      setFile(await bridge.api.describeFile({ file: await toFileRef(bridge, first) }))
    } catch (e) {
      setFile(null)
      setError(errorInfo(e))
    } finally {
      setBusy(false)
    }
  }

  function onDrop(event: DragEvent) {
    event.preventDefault()
    setOver(false)
    void take(event.dataTransfer.files)
  }

  return (
    <section className="card" aria-labelledby="drop-title">
      <div className="card-head">
        <div>
          <h2 id="drop-title">Workbook</h2>
          <p className="card-sub">Start from a filled workbook (.xlsx or .csv).</p>
        </div>
      </div>
      <div
        className={`drop ${over ? 'drop-over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault()
          setOver(true)
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <p>{busy ? 'Reading…' : 'Drop a workbook here'}</p>
        <button
          type="button"
          className="btn btn-secondary btn-small"
          onClick={() => input.current?.click()}
        >
          Choose a file…
        </button>
        <input
          ref={input}
          type="file"
          className="visually-hidden"
          accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
          aria-label="Choose a workbook"
          tabIndex={-1}
          onChange={(e) => void take(e.target.files)}
        />
      </div>
      <p className="drop-result" aria-live="polite">
        {file && (
          <>
            <strong>{file.name}</strong> · {formatBytes(file.sizeBytes)} · ready
          </>
        )}
      </p>
      {error && <ErrorNotice error={error} onDismiss={() => setError(null)} />}
    </section>
  )
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}
