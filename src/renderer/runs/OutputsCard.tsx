import { useEffect, useRef } from 'react'
import type { RunOverview } from '../../shared/bridge'
import { isTerminalStatus } from '../../shared/contract/statuses'
import { Details } from '../components/CardParts'
import { ErrorNotice } from '../components/ErrorNotice'
import { ProgressBar } from '../components/ProgressBar'
import { useRunDetail, useSaves, useSettings, useStores, useFields } from '../stores/context'
import { saveText } from '../stores/saves-store'
import { CopyablePath } from './CopyablePath'
import { parentFolderName, savedFolderWords } from './run-view'
import { RedoRows } from '../redo/RedoRows'
import { RowVersions } from '../redo/RowVersions'
import { RetryFailed } from './RetryFailed'
import { plural } from '../../shared/format/amounts'

/** What to do with a run's outputs: save them, write the results workbook, retry failed rows. */
export function OutputsCard(props: { overview: RunOverview }) {
  const { runDetail } = useStores()
  const { overview } = props
  const { run } = overview.detail
  const save = useSaves((s) => s.byRun[run.runId])
  const results = useRunDetail((s) => s.results)
  const finished = isTerminalStatus(run.status)
  const hasOutputs = (overview.rows?.outputs ?? overview.detail.artifacts.length) > 0
  const savedFolder = save?.state === 'saved' ? save.folder : overview.savedFolder
  const resultsPath = results.state === 'saved' ? results.value.path : overview.resultsWorkbook
  const autoSave = useSettings((s) => s.settings?.autoSaveOutputs ?? false)
  const prevSave = useRef(save)
  useEffect(() => {
    // Once a save ends (one asked for, or the one made when the run ended), read the run again
    // so the saved folder and counts are current.
    if (save !== prevSave.current && save && save.state !== 'saving')
      void runDetail.getState().refresh()
    prevSave.current = save
  }, [save, runDetail])

  return (
    <section className="card" aria-labelledby="outputs-title">
      <h3 id="outputs-title">Outputs and results</h3>
      {!finished && (
        <p className="card-sub">
          {autoSave
            ? 'Outputs are saved to the outputs folder as soon as the run ends.'
            : 'Outputs can be saved once the run has ended.'}
        </p>
      )}
      {finished && !hasOutputs && <p className="card-sub">This run made no outputs.</p>}
      <div className="outputs-actions">
        <SaveOutputs
          overview={overview}
          disabled={!finished || !hasOutputs}
          saveAgain={Boolean(savedFolder)}
        />
        <SaveResultsWorkbook disabled={!finished} />
        {finished && <RetryFailed overview={overview} />}
        {finished && <RedoRows overview={overview} />}
      </div>
      <RowVersions overview={overview} />
      {(savedFolder || resultsPath) && (
        <SavedPlaces savedFolder={savedFolder} resultsPath={resultsPath} />
      )}
    </section>
  )
}

/** "Save all outputs" with its progress and result. */
function SaveOutputs(props: { overview: RunOverview; disabled: boolean; saveAgain: boolean }) {
  const { saves } = useStores()
  const { environment } = props.overview
  const { runId } = props.overview.detail.run
  const save = useSaves((s) => s.byRun[runId])
  return (
    <div className="outputs-action">
      <button
        type="button"
        className="btn btn-primary"
        disabled={props.disabled || save?.state === 'saving'}
        onClick={() => void saves.getState().save(environment, runId)}
      >
        {props.saveAgain ? 'Save all again' : 'Save all outputs'}
      </button>
      {save?.state === 'saving' && (
        <SaveProgress done={save.doneFiles} total={save.totalFiles} label="Saving outputs" />
      )}
      {save && save.state !== 'saving' && (
        <span className={`save-text${save.state === 'failed' ? ' save-failed' : ''}`} role="status">
          {saveText(save)}
        </span>
      )}
    </div>
  )
}

/** "Save results workbook" with its progress and result. */
function SaveResultsWorkbook(props: { disabled: boolean }) {
  const { runDetail } = useStores()
  const results = useRunDetail((s) => s.results)
  return (
    <div className="outputs-action">
      <button
        type="button"
        className="btn btn-secondary"
        disabled={props.disabled || results.state === 'saving'}
        onClick={() => void runDetail.getState().saveResults()}
      >
        Save results workbook
      </button>
      {results.state === 'saving' && (
        <SaveProgress
          done={results.doneFiles}
          total={results.totalFiles}
          label="Writing the results workbook"
        />
      )}
      {results.state === 'saved' && (
        <span className="save-text" role="status">
          Saved the results of {plural(results.value.rows, 'row')}
          {results.value.failedDownloads
            ? `; ${plural(results.value.failedDownloads, 'output')} could not be saved (save again to retry)`
            : ''}
          .
        </span>
      )}
      {results.state === 'failed' && (
        <ErrorNotice
          error={results.error}
          onRetry={() => void runDetail.getState().saveResults()}
        />
      )}
    </div>
  )
}

/**
 * Where the outputs and the results workbook were saved, in words, with "Show in folder". The
 * folder on disk carries the run's id (so the command line and support find it from the id):
 * the full paths, to copy, are folded under Details.
 */
function SavedPlaces(props: { savedFolder: string; resultsPath: string }) {
  const { runDetail, bridge } = useStores()
  const { shown, showError } = useFields('runDetail', 'shown', 'showError')
  const showLabel = bridge.shell === 'electron' ? 'Show in folder' : 'Where is it?'
  const places = [
    {
      item: 'outputs' as const,
      label: 'Outputs saved in',
      words: savedFolderWords(props.savedFolder),
      path: props.savedFolder,
    },
    {
      item: 'results' as const,
      label: 'Results workbook',
      words: `In “${parentFolderName(props.resultsPath)}”, beside the run’s folder`,
      path: props.resultsPath,
    },
  ].filter((place) => place.path)
  const askedWhere = shown && shown.item !== 'artifact' && !shown.shown
  return (
    <div className="saved-places">
      {places.map((place) => (
        <div className="saved-place" key={place.item}>
          <p className="saved-place-words">
            <span className="saved-place-label">{place.label}</span>
            <span>{place.words}</span>
          </p>
          <button
            type="button"
            className="btn btn-secondary btn-small"
            onClick={() => void runDetail.getState().showInFolder(place.item)}
          >
            {showLabel}
          </button>
        </div>
      ))}
      {askedWhere && (
        <p className="card-sub" role="status">
          A browser cannot open folders on this computer. Open your file manager and go to the
          folder written out under Details (copy it with its button).
        </p>
      )}
      <Details open={Boolean(askedWhere)}>
        {places.map((place) => (
          <CopyablePath key={place.item} label={place.label} path={place.path} />
        ))}
      </Details>
      {showError && showError.item !== 'artifact' && <ErrorNotice error={showError} />}
    </div>
  )
}

function SaveProgress(props: { done: number; total: number; label: string }) {
  return (
    <span className="save-progress">
      <span className="progress-text" role="status">
        {props.total ? `${props.done} of ${props.total} files…` : 'Starting…'}
      </span>
      <ProgressBar label={props.label} fraction={props.total ? props.done / props.total : 0} />
    </span>
  )
}
