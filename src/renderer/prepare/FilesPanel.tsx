import { CancelButton, useCancel } from './CancelButton'
import { ErrorNotice } from '../components/ErrorNotice'
import { ProgressBar } from '../components/ProgressBar'
import { FileDrop } from '../components/FileDrop'
import { useFields, useStores } from '../stores/context'
import { formatBytes } from '../../shared/format/bytes'
import { countFileCells, resolveFileCells } from '../stores/prepare/files-slice'

const STATE_WORDS = {
  found: 'Found',
  missing: 'Not found',
  url: 'Web address',
  unchecked: 'Not looked for yet',
} as const

const UPLOAD_WORDS: Record<string, string> = {
  waiting: 'Waiting',
  hashing: 'Preparing',
  uploading: 'Uploading',
  done: 'Uploaded',
  reused: 'Already on the service',
  failed: 'Failed',
}

/**
 * The files named in file cells: which were found and which not. In a browser the page cannot
 * look at the workbook's folder: the user drops the folder, and its files are matched by path.
 * Found files upload with progress per file and in total; a failed upload is retried with one
 * click, and a file already sent (same content) is not sent again.
 */
export function FilesPanel() {
  const { prepare, bridge } = useStores()
  const { check, folder, uploads } = useFields('prepare', 'check', 'folder', 'uploads')
  if (!check || check.fileCells.length === 0) return null
  const cells = resolveFileCells(check.fileCells, folder)
  const counts = countFileCells(cells)
  const browser = bridge.shell === 'browser'
  const uploadable = cells.filter((c) => c.file !== null).length
  const uploadedNames = new Set(uploads.filter((u) => u.inputAssetId).map((u) => u.name))
  const allUploaded =
    counts.missing + counts.unchecked === 0 &&
    uploadable > 0 &&
    cells.every((c) => c.file === null || uploadedNames.has(c.key))

  return (
    <div className="files-panel" aria-labelledby="files-title">
      <h3 id="files-title" className="prep-subtitle">
        Files named in the workbook
      </h3>
      <p className="prep-muted">
        {counts.found} found · {counts.missing} not found
        {counts.url ? ` · ${counts.url} web addresses` : ''}
        {counts.unchecked ? ` · ${counts.unchecked} not looked for yet` : ''}
      </p>
      {browser && counts.unchecked + counts.missing > 0 && (
        <FileDrop
          prompt="In a browser, drop the folder that holds these files (paths are read relative to the workbook)."
          chooseLabel="Choose the folder…"
          inputLabel="Choose the folder with the files"
          folder
          onFiles={(files) =>
            prepare
              .getState()
              .addFolder(new Map(files.map((f) => [f.webkitRelativePath || f.name, f])))
          }
        />
      )}
      <ul className="file-cells">
        {cells.slice(0, 200).map((c, i) => (
          <li key={i} className={`file-cell file-${c.state}`}>
            <span className="file-state">{STATE_WORDS[c.state]}</span>
            <span className="mono file-value">{c.value}</span>
            <span className="file-row">Row {c.rowNumber}</span>
          </li>
        ))}
        {cells.length > 200 && <li className="prep-muted">and {cells.length - 200} more</li>}
      </ul>
      {browser && counts.found + counts.missing + counts.unchecked > 0 && (
        <p className="prep-muted" role="status">
          {allUploaded
            ? 'Every file is uploaded: each row is sent with the files it names.'
            : 'Upload the files before you send: each row is sent with the files it names. A file already on the service (same content) is not sent again.'}
        </p>
      )}
      {browser && uploadable > 0 && <Uploads allUploaded={allUploaded} />}
    </div>
  )
}

/** "Upload the files", with progress in total and per file. */
function Uploads(props: { allUploaded: boolean }) {
  const { prepare } = useStores()
  const { uploads, uploading, overall, uploadError, uploadStopped } = useFields(
    'prepare',
    'uploads',
    'uploading',
    'overall',
    'uploadError',
    'uploadStopped',
  )
  const { restart, cancel } = useCancel(uploadStopped, () => prepare.getState().cancelUploads())
  const failed = uploads.some((u) => u.state === 'failed')
  const totalBytes = overall?.totalBytes ?? uploads.reduce((n, u) => n + u.totalBytes, 0)
  const sentBytes =
    overall?.sentBytes ?? uploads.reduce((n, u) => n + (u.inputAssetId ? u.totalBytes : 0), 0)
  const fraction = totalBytes > 0 ? sentBytes / totalBytes : 0
  return (
    <div className="uploads">
      <div className="prep-actions">
        <button
          ref={restart}
          type="button"
          className="btn btn-secondary"
          disabled={uploading || props.allUploaded}
          onClick={() => void prepare.getState().uploadFiles()}
        >
          {uploading ? 'Uploading…' : failed ? 'Retry the failed uploads' : 'Upload the files'}
        </button>
        {uploading && <CancelButton onCancel={cancel} />}
      </div>
      {uploadStopped && !uploading && (
        <p className="prep-note" role="status">
          Upload stopped. Files that had not finished are not on the service; nothing was charged.
          Upload them again when you are ready.
        </p>
      )}
      {uploads.length > 0 && (
        <>
          <ProgressBar label="All files" fraction={fraction} />
          <p className="prep-muted">
            {formatBytes(sentBytes)} of {formatBytes(totalBytes)}
          </p>
          <ul className="upload-list">
            {uploads.map((u) => (
              <li key={u.name}>
                <span className="mono upload-name" title={u.name}>
                  {u.name}
                </span>
                <span>{UPLOAD_WORDS[u.state] ?? u.state}</span>
                <ProgressBar
                  label={`Upload of ${u.name}`}
                  fraction={u.totalBytes ? u.sentBytes / u.totalBytes : 0}
                />
              </li>
            ))}
          </ul>
        </>
      )}
      {uploadError && <ErrorNotice error={uploadError} />}
    </div>
  )
}
