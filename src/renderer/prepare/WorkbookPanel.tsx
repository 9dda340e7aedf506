import { useCallback, useRef } from 'react'
import type { WorkbookCheckView } from '../../shared/bridge'
import { ErrorNotice } from '../components/ErrorNotice'
import { FileDrop } from '../components/FileDrop'
import { usePrepare, useStores, useFields } from '../stores/context'
import { checkHeadline } from '../stores/prepare/check-slice'
import { formatBytes } from '../../shared/format/bytes'
import { ErrorList } from './ErrorList'
import { ReadNotices } from './ReadNotices'
import { FilesPanel } from './FilesPanel'
import { MappingPanel } from './MappingPanel'
import { RowsGrid } from './RowsGrid'
import { RunFieldsForm } from './RunFieldsForm'
import { SavedLine } from './SchemaForm'
import { CardHead } from '../components/CardParts'
import { plural } from '../../shared/format/amounts'

const ACCEPT =
  '.xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv'

/**
 * Step 3: the filled workbook. Dropped or chosen at any time; read and checked in the engine's
 * worker with progress and Cancel; then its rows, its problems (each one jumps to its cell),
 * "Check again" after fixing it in Excel, and "Save a marked-up copy".
 */
export function WorkbookPanel() {
  const { prepare } = useStores()
  const {
    file,
    checkState: state,
    check,
    checkError: error,
    leftWorkbook,
  } = useFields('prepare', 'file', 'checkState', 'check', 'checkError', 'leftWorkbook')
  const reading = state === 'reading'
  const shown = check && !reading ? check : null
  const panel = useRef<HTMLElement>(null)
  // After a read, the next useful control: the sheet to choose or the first problem to see, or
  // sending once the workbook is clean.
  const nextFocus = useCallback(
    () =>
      panel.current?.querySelector<HTMLElement>('.sheet-choice select, .error-jump') ??
      document.querySelector<HTMLElement>(
        'section[aria-labelledby="send-title"] .prep-actions .btn-primary:not(:disabled)',
      ),
    [],
  )

  return (
    <section
      ref={panel}
      className="card prep-card"
      aria-labelledby="workbook-title"
      aria-busy={reading}
    >
      <CardHead
        titleId="workbook-title"
        title="3. Your filled workbook"
        sub="Excel (.xlsx) or .csv. Nothing is sent: it is checked on this computer."
      >
        {file && !reading && <CheckActions shown={shown} />}
      </CardHead>

      <FileDrop
        prompt={
          file ? `Drop another workbook to replace “${file.name}”` : 'Drop a filled workbook here'
        }
        chooseLabel={file ? 'Choose another…' : 'Choose a workbook…'}
        inputLabel="Choose a workbook"
        accept={ACCEPT}
        busy={reading}
        nextFocus={nextFocus}
        onFiles={(files) => void prepare.getState().takeFile(files[0]!)}
      />

      {leftWorkbook && !file && (
        <p className="prep-note">
          “{leftWorkbook}” was filled for your earlier choice, so it was taken off. To check it
          against this one, drop it again.
        </p>
      )}

      {reading && <CheckProgress />}

      {error && !reading && <ErrorNotice error={error} />}

      {shown && <CheckResult shown={shown} />}
    </section>
  )
}

/** "Check again" and, when it has problems, "Save a marked-up copy". */
function CheckActions(props: { shown: WorkbookCheckView | null }) {
  const { prepare } = useStores()
  const markedUpSaving = usePrepare((s) => s.markedUpSaving)
  const { shown } = props
  return (
    <div className="prep-actions">
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => void prepare.getState().checkAgain()}
      >
        Check again
      </button>
      {shown && shown.target && !shown.valid && (
        <button
          type="button"
          className="btn btn-secondary"
          disabled={markedUpSaving}
          onClick={() => void prepare.getState().saveMarkedUp()}
        >
          {markedUpSaving ? 'Saving…' : 'Save a marked-up copy'}
        </button>
      )}
    </div>
  )
}

/** The check under way: rows read so far, and Cancel. */
function CheckProgress() {
  const { prepare } = useStores()
  const { file, rowsRead } = useFields('prepare', 'file', 'rowsRead')
  return (
    <div className="reading" role="status" aria-live="polite">
      <p>
        Checking “{file?.name}”… {plural(rowsRead, 'row')} read
      </p>
      <span
        className="progress progress-indeterminate"
        role="progressbar"
        aria-label="Checking the workbook"
        aria-valuetext={`${plural(rowsRead, 'row')} read`}
      >
        <span className="progress-fill" />
      </span>
      <button
        type="button"
        className="btn btn-small"
        onClick={() => void prepare.getState().cancelCheck()}
      >
        Cancel
      </button>
    </div>
  )
}

/** The finished check: its verdict, problems, run values, rows and the files it names. */
function CheckResult(props: { shown: WorkbookCheckView }) {
  const { prepare, bridge } = useStores()
  const { focus, markedUpSaved, markedUpError } = useFields(
    'prepare',
    'focus',
    'markedUpSaved',
    'markedUpError',
  )
  const { shown } = props
  return (
    <>
      <p
        className={`verdict ${shown.valid ? 'verdict-ok' : shown.target ? 'verdict-bad' : ''}`}
        role="status"
      >
        {checkHeadline(shown)}
      </p>
      <p className="prep-muted check-meta">
        {shown.fileName} · {formatBytes(shown.sizeBytes)}
        {shown.target
          ? ` · checked against ${shown.target.name}${shown.targetFromWorkbook ? ' (named by the workbook)' : ''}`
          : ''}
        {shown.schemaFromCache ? ' · offline, with the saved form' : ''}
        {shown.sheet ? ` · sheet “${shown.sheet}”` : ''}
      </p>
      <ReadNotices shown={shown} />
      <SavedLine
        saved={markedUpSaved}
        error={markedUpError}
        onDismiss={() => prepare.setState({ markedUpError: null })}
      />
      {shown.mapping && <MappingPanel key={shown.checkId} mapping={shown.mapping} />}
      <ErrorList
        fileErrors={shown.fileErrors}
        problems={shown.problems}
        onJump={(p) =>
          p.rowPosition !== null && prepare.getState().focusProblem(p.rowPosition, p.column)
        }
      />
      <RunFieldsForm fields={shown.runFields} />
      {shown.rowCount > 0 && shown.columns.length > 0 && (
        <RowsGrid
          api={bridge.api}
          checkId={shown.checkId}
          total={shown.rowCount}
          columns={shown.columns}
          focus={focus}
        />
      )}
      <FilesPanel />
    </>
  )
}
