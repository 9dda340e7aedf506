import { useEffect, useMemo, useRef, useState } from 'react'
import type { EnvironmentView, RunOverview } from '../../shared/bridge'
import { isTerminalStatus, type Artifact, type RunTask } from '../../shared/contract'
import { formatUnixTime, runDoneFraction, runProgressText } from '../../shared/format'
import { ErrorNotice } from '../components/ErrorNotice'
import { ProgressBar } from '../components/ProgressBar'
import { StatusBadge } from '../components/StatusBadge'
import { VirtualRow, VirtualTable } from '../components/VirtualTable'
import { useNow } from '../components/RunsTable'
import { useRunDetail, useSaves, useStores } from '../stores/context'
import { saveText } from '../stores/saves-store'
import { ArtifactPreview } from './ArtifactPreview'
import { CopyablePath } from './CopyablePath'
import { costLines, kindLabel, orderTasks, rowLabel, runDuration } from './run-view'
import { RetryFailed } from './RetryFailed'

/** One run: progress, timing, cost, its rows with their errors, its outputs and what to do. */
export function RunDetail(props: { env: EnvironmentView; runId: string }) {
  const { runDetail, nav } = useStores()
  const overview = useRunDetail((s) => s.overview)
  const loading = useRunDetail((s) => s.loading)
  const error = useRunDetail((s) => s.error)
  const { env, runId } = props

  useEffect(() => {
    void runDetail.getState().open(env.name, runId)
    return () => runDetail.getState().close()
  }, [runDetail, env.name, runId])

  const back = (
    <button
      type="button"
      className="btn btn-quiet back-link"
      onClick={() => nav.getState().closeRun()}
    >
      ← All runs
    </button>
  )
  if (!overview) {
    return (
      <section className="card run-detail" aria-labelledby="run-title">
        {back}
        <h2 id="run-title">Run {runId}</h2>
        {loading && (
          <p className="card-sub" role="status">
            Loading the run…
          </p>
        )}
        {error && <ErrorNotice error={error} onRetry={() => void runDetail.getState().refresh()} />}
      </section>
    )
  }
  return (
    <div className="run-detail-stack">
      <RunSummaryCard overview={overview} back={back} />
      {error && <ErrorNotice error={error} onRetry={() => void runDetail.getState().refresh()} />}
      <OutputsCard overview={overview} />
      <TasksCard overview={overview} />
      <ArtifactsCard overview={overview} />
    </div>
  )
}

function RunSummaryCard(props: { overview: RunOverview; back: React.ReactNode }) {
  const { nav } = useStores()
  const now = useNow(1000)
  const { run } = props.overview.detail
  const fraction = runDoneFraction(run)
  const name = run.displayName || run.runId
  const live = !isTerminalStatus(run.status)
  return (
    <section className="card run-detail" aria-labelledby="run-title">
      {props.back}
      <div className="run-title-row">
        <h2 id="run-title">{name}</h2>
        <StatusBadge status={run.status} />
        {live && <span className="live-dot">Live</span>}
      </div>
      <p className="card-sub">
        {[
          run.templateName || props.overview.detail.market?.skillName || run.templateKey,
          props.overview.inputFilename,
          run.runId,
        ]
          .filter(Boolean)
          .join(' · ')}
      </p>
      <div className="run-progress">
        <span className="progress-text" aria-live="polite">
          {runProgressText(run)}
        </span>
        <ProgressBar label={`Progress of ${name}`} fraction={fraction} large />
      </div>
      <dl className="facts">
        <Fact label="Rows" value={String(run.totalTasks)} />
        <Fact label="Succeeded" value={String(run.completedTasks)} />
        <Fact label="Failed" value={String(run.failedTasks)} tone={run.failedTasks ? 'bad' : ''} />
        {run.cancelledTasks > 0 && <Fact label="Cancelled" value={String(run.cancelledTasks)} />}
        <Fact label="Submitted" value={formatUnixTime(run.createdAtUnix, now)} />
        <Fact
          label="Finished"
          value={run.completedAtUnix ? formatUnixTime(run.completedAtUnix, now) : '—'}
        />
        <Fact label={live ? 'Running for' : 'Took'} value={runDuration(run, now)} />
        {costLines(props.overview).map((line) => (
          <Fact key={line.label} label={line.label} value={line.value} />
        ))}
      </dl>
      {(props.overview.retryOfRunId || props.overview.retriedBy.length > 0) && (
        <p className="run-links">
          {props.overview.retryOfRunId && (
            <>
              Retries the failed rows of{' '}
              <button
                type="button"
                className="link-button"
                onClick={() => nav.getState().openRun(props.overview.retryOfRunId)}
              >
                {props.overview.retryOfRunId}
              </button>
              .{' '}
            </>
          )}
          {props.overview.retriedBy.map((id) => (
            <span key={id}>
              Failed rows retried in{' '}
              <button
                type="button"
                className="link-button"
                onClick={() => nav.getState().openRun(id)}
              >
                {id}
              </button>
              .{' '}
            </span>
          ))}
        </p>
      )}
      {!props.overview.fromThisDevice && (
        <p className="card-sub">
          This run was not submitted from this computer: its rows are named by their position in the
          submitted rows.
        </p>
      )}
    </section>
  )
}

function Fact(props: { label: string; value: string; tone?: string }) {
  return (
    <div className="fact">
      <dt>{props.label}</dt>
      <dd className={props.tone ? `tone-${props.tone}` : undefined}>{props.value}</dd>
    </div>
  )
}

function OutputsCard(props: { overview: RunOverview }) {
  const { saves, runDetail, bridge } = useStores()
  const { run } = props.overview.detail
  const environment = props.overview.environment
  const save = useSaves((s) => s.byRun[run.runId])
  const results = useRunDetail((s) => s.results)
  const shown = useRunDetail((s) => s.shown)
  const showError = useRunDetail((s) => s.showError)
  const finished = isTerminalStatus(run.status)
  const hasOutputs = props.overview.detail.artifacts.length > 0
  const savedFolder = save?.state === 'saved' ? save.folder : props.overview.savedFolder
  const resultsPath =
    results.state === 'saved' ? results.value.path : props.overview.resultsWorkbook
  const desktop = bridge.shell === 'electron'
  const prevSave = useRef(save?.state)
  useEffect(() => {
    // Once a save ends, read the run again so the saved folder and counts are current.
    if (prevSave.current === 'saving' && save?.state !== 'saving')
      void runDetail.getState().refresh()
    prevSave.current = save?.state
  }, [save?.state, runDetail])

  return (
    <section className="card" aria-labelledby="outputs-title">
      <h3 id="outputs-title">Outputs and results</h3>
      {!finished && <p className="card-sub">Outputs can be saved once the run has ended.</p>}
      {finished && !hasOutputs && <p className="card-sub">This run made no outputs.</p>}
      <div className="outputs-actions">
        <div className="outputs-action">
          <button
            type="button"
            className="btn btn-primary"
            disabled={!finished || !hasOutputs || save?.state === 'saving'}
            onClick={() => void saves.getState().save(environment, run.runId)}
          >
            {savedFolder ? 'Save all again' : 'Save all outputs'}
          </button>
          {save?.state === 'saving' && (
            <SaveProgress done={save.doneFiles} total={save.totalFiles} label="Saving outputs" />
          )}
          {save && save.state !== 'saving' && (
            <span
              className={`save-text${save.state === 'failed' ? ' save-failed' : ''}`}
              role="status"
            >
              {saveText(save)}
            </span>
          )}
        </div>
        <div className="outputs-action">
          <button
            type="button"
            className="btn btn-secondary"
            disabled={!finished || results.state === 'saving'}
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
              Saved the results of {results.value.rows} rows
              {results.value.failedDownloads
                ? `; ${results.value.failedDownloads} outputs could not be saved (save again to retry)`
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
        {finished && <RetryFailed overview={props.overview} />}
      </div>
      {(savedFolder || resultsPath) && (
        <div className="saved-places">
          {savedFolder && (
            <div className="saved-place">
              <CopyablePath label="Outputs saved in" path={savedFolder} />
              <button
                type="button"
                className="btn btn-secondary btn-small"
                onClick={() => void runDetail.getState().showInFolder('outputs')}
              >
                {desktop ? 'Show in folder' : 'Where is it?'}
              </button>
            </div>
          )}
          {resultsPath && (
            <div className="saved-place">
              <CopyablePath label="Results workbook" path={resultsPath} />
              <button
                type="button"
                className="btn btn-secondary btn-small"
                onClick={() => void runDetail.getState().showInFolder('results')}
              >
                {desktop ? 'Show in folder' : 'Where is it?'}
              </button>
            </div>
          )}
          {shown && shown.item !== 'artifact' && !shown.shown && (
            <p className="card-sub" role="status">
              A browser cannot open folders on this computer. Open your file manager and go to{' '}
              <code>{shown.path}</code> (copy it with the button above).
            </p>
          )}
          {showError && showError.item !== 'artifact' && <ErrorNotice error={showError} />}
        </div>
      )}
    </section>
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

const TASK_ROW = 52
const taskKey = (task: RunTask) => task.taskId

function TasksCard(props: { overview: RunOverview }) {
  const tasks = props.overview.detail.tasks
  const failed = tasks.filter((t) => t.status === 'failed').length
  const [onlyFailed, setOnlyFailed] = useState(false)
  const shown = useMemo(() => orderTasks(tasks, onlyFailed), [tasks, onlyFailed])
  const rowNumbers = props.overview.rowNumbers
  return (
    <section className="card" aria-labelledby="tasks-title">
      <div className="card-head">
        <div>
          <h3 id="tasks-title">Rows</h3>
          <p className="card-sub">
            {tasks.length} rows
            {failed ? `, ${failed} failed (shown first)` : ''}
          </p>
        </div>
        {failed > 0 && (
          <label className="check">
            <input
              type="checkbox"
              checked={onlyFailed}
              onChange={(e) => setOnlyFailed(e.target.checked)}
            />
            Only failed rows
          </label>
        )}
      </div>
      {tasks.length === 0 ? (
        <p className="card-sub">No rows have started yet.</p>
      ) : (
        <VirtualTable
          items={shown}
          itemKey={taskKey}
          rowHeight={TASK_ROW}
          short
          overscan={10}
          label="Rows of the run, scrollable"
          tableClassName="tasks-table"
          columns={
            <>
              <th scope="col">Row</th>
              <th scope="col">Status</th>
              <th scope="col">Error</th>
              <th scope="col">Outputs</th>
            </>
          }
          renderRow={(task, place) => (
            <VirtualRow data-task-id={task.taskId} place={place}>
              <td>{rowLabel(task.sourceRowIndex, rowNumbers)}</td>
              <td>
                <StatusBadge status={task.status} />
              </td>
              <td
                className={task.errorMessage ? 'task-error' : 'muted'}
                title={task.errorMessage || undefined}
              >
                {task.errorMessage || '—'}
              </td>
              <td className="num">{task.artifactCount}</td>
            </VirtualRow>
          )}
        />
      )}
    </section>
  )
}

const ARTIFACT_ROW = 44
const artifactKey = (artifact: Artifact) => artifact.artifactId

function ArtifactsCard(props: { overview: RunOverview }) {
  const { runDetail, bridge } = useStores()
  const artifacts = props.overview.detail.artifacts
  const previewing = useRunDetail((s) => s.previewing)
  const previews = useRunDetail((s) => s.previews)
  const rowNumbers = props.overview.rowNumbers
  const open: Artifact | undefined = artifacts.find((a) => a.artifactId === previewing)
  return (
    <section className="card" aria-labelledby="artifacts-title">
      <h3 id="artifacts-title">Outputs</h3>
      <p className="card-sub">
        {artifacts.length === 0
          ? 'No outputs yet.'
          : `${artifacts.length} outputs. Preview text, JSON, CSV and images here; save them to open the others.`}
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
          columns={
            <>
              <th scope="col">Row</th>
              <th scope="col">Output</th>
              <th scope="col">Type</th>
              <th scope="col">
                <span className="visually-hidden">Preview</span>
              </th>
            </>
          }
          renderRow={(artifact, place) => {
            const label = rowLabel(artifact.sourceRowIndex, rowNumbers)
            return (
              <VirtualRow place={place}>
                <td>{label}</td>
                <td>{artifact.portName || 'output'}</td>
                <td className="muted" title={artifact.mimeType || undefined}>
                  {kindLabel(artifact.mimeType)}
                </td>
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
          label={rowLabel(open.sourceRowIndex, rowNumbers)}
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
