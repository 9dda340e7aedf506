/**
 * Two runs compared row by row: rows matched by their inputs (match-rows.ts), and for each pair
 * the status, every output (text as a word diff, JSON field by field, other files by name, size
 * and a preview), and each row's cost and time. The flow reads both runs and their outputs; the
 * comparing itself is pure (compare-rows.ts).
 */
import { amountT, shareT } from '../../../shared/format/amounts'
import type { Artifact, RunDetail } from '../../../shared/contract'
import type { ComparisonView, CompareRunSide } from '../../../shared/bridge'
import { rowLabel } from '../../../shared/format'
import type { Connection } from '../../environments/connection'
import { previewArtifact, previewKind } from '../downloads/artifact-preview'
import type { Submission, Submissions } from '../spend/submissions'
import { rowNumberingOf } from '../spend/submissions'
import type { Schemas } from '../prepare/schema-cache'
import type { ColumnMappings } from '../prepare/column-mappings'
import { userColumnsOf } from '../results/user-columns'
import type { Downloads } from '../downloads/downloads'
import { readStoredRun } from '../watch/stored-detail'
import { compareRows, type LoadedOutput, type SideRow } from './compare-rows'

export interface CompareServices {
  submissions: Pick<Submissions, 'byRun'>
  /** A template's saved schema and the buyer's confirmed mappings: the inputs' column names. */
  schemas?: Pick<Schemas, 'cached'>
  mappings?: Pick<ColumnMappings, 'forTarget'>
  /** Where runs' rows are stored as read: a run is then read there, never held as one answer. */
  downloads?: Pick<Downloads, 'rows'>
}

/**
 * The names of a run's input fields as the buyer's sheet had them: the mapped sheet's own
 * headers, else the template's column headers; a field nothing names keeps its key.
 */
async function inputNamesOf(
  services: CompareServices,
  connection: Connection,
  submission: Submission | null,
  signal?: AbortSignal,
): Promise<Record<string, string>> {
  if (submission?.targetKind !== 'template') return {}
  const schema = services.schemas?.cached(connection.historyKey, submission.targetId)?.schema
  if (!schema) return {}
  const names: Record<string, string> = {}
  for (const column of schema.columns) names[column.fieldKey] = column.headerLabel
  const own = await userColumnsOf(
    services.mappings,
    connection.historyKey,
    submission,
    schema,
    signal,
  )
  for (const column of own ?? []) names[column.key] = column.header
  return names
}

/** Outputs read per run for the comparison; the rest are compared by name. */
const MAX_READ_PER_RUN = 400
const READS_AT_ONCE = 6

/** What the comparison knows of one output: its text when it is text or JSON, else its size. */
async function loadOutput(connection: Connection, artifact: Artifact): Promise<LoadedOutput> {
  const kind = previewKind(artifact.mimeType || (artifact.inlineText ? 'text/plain' : ''))
  const base = {
    artifactId: artifact.artifactId,
    portName: artifact.portName,
    mimeType: artifact.mimeType,
  }
  if (kind === 'text' || kind === 'json' || kind === 'csv') {
    const preview = await previewArtifact(connection.client, artifact)
    return {
      ...base,
      kind: kind === 'json' ? 'json' : 'text',
      text: preview.text,
      truncated: preview.truncated,
      sizeBytes: artifact.inlineText ? Buffer.byteLength(artifact.inlineText) : null,
      read: true,
    }
  }
  let sizeBytes: number | null = null
  if (artifact.accessUrl) {
    const head = await connection.client.fetchArtifact(artifact.accessUrl, { method: 'HEAD' })
    const length = Number(head.headers.get('content-length') ?? NaN)
    sizeBytes = Number.isFinite(length) ? length : null
  }
  return { ...base, kind: 'file', text: '', truncated: false, sizeBytes, read: true }
}

/** Every output of a run, read a few at a time; past the limit (or on failure) by name only. */
async function loadOutputs(
  connection: Connection,
  detail: RunDetail,
): Promise<Map<string, LoadedOutput>> {
  const out = new Map<string, LoadedOutput>()
  const queue = detail.artifacts.slice(0, MAX_READ_PER_RUN)
  const workers = Array.from({ length: READS_AT_ONCE }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const artifact = next
      out.set(
        artifact.artifactId,
        await loadOutput(connection, artifact).catch(() => unread(artifact)),
      )
    }
  })
  await Promise.all(workers)
  for (const artifact of detail.artifacts)
    if (!out.has(artifact.artifactId)) out.set(artifact.artifactId, unread(artifact))
  return out
}

function unread(artifact: Artifact): LoadedOutput {
  return {
    artifactId: artifact.artifactId,
    portName: artifact.portName,
    mimeType: artifact.mimeType,
    kind: 'file',
    text: '',
    truncated: false,
    sizeBytes: null,
    read: false,
  }
}

/** Each row of a run with what the comparison needs of it. */
function sideRows(
  services: CompareServices,
  connection: Connection,
  detail: RunDetail,
  outputs: Map<string, LoadedOutput>,
): { rows: SideRow[]; side: CompareRunSide } {
  const { run } = detail
  const submission = services.submissions.byRun(connection.historyKey, run.runId)
  const numbering = rowNumberingOf(submission)
  const cost = amountT(run.actualCostT || run.estimatedCostT)
  const perRow = run.completedTasks > 0 ? shareT(cost, 1, run.completedTasks, 'exact') : null
  const rows = detail.tasks.map((task): SideRow => {
    const artifacts = detail.artifacts.filter((a) => a.sourceRowIndex === task.sourceRowIndex)
    const last = Math.max(0, ...artifacts.map((a) => a.createdAtUnix))
    const start = run.startedAtUnix || run.createdAtUnix
    return {
      index: task.sourceRowIndex,
      inputs:
        (submission?.rows[task.sourceRowIndex] as Record<string, unknown> | undefined) ?? null,
      side: {
        runId: run.runId,
        index: task.sourceRowIndex,
        label: rowLabel(numbering, task.sourceRowIndex),
        status: task.status,
        error: task.errorMessage,
        costT: task.status === 'succeeded' ? perRow : perRow === null ? null : 0,
        readyAfterSeconds: artifacts.length && start ? Math.max(0, last - start) : null,
      },
      outputs: artifacts.map((a) => outputs.get(a.artifactId)!),
    }
  })
  return {
    rows: rows.sort((x, y) => x.index - y.index),
    side: {
      runId: run.runId,
      name: run.templateName || run.inputFilename || run.runId,
      status: run.status,
      totalTasks: run.totalTasks,
      costT: run.actualCostT,
      inputsKnown: submission !== null,
    },
  }
}

/**
 * A run as the comparison needs it: read into the history as its detail arrives (no answer limit
 * applies), then its tasks, and its outputs with the text of only those read for the comparison.
 */
async function runOf(
  services: CompareServices,
  connection: Connection,
  runId: string,
  signal?: AbortSignal,
): Promise<RunDetail> {
  const rows = services.downloads?.rows
  if (!rows) return connection.client.run(runId, { signal })
  const { historyKey } = connection
  const where = { historyKey, runId, keepUpTo: 0 }
  const read = await readStoredRun(connection.client, rows, where, { signal })
  const tasks = [...rows.tasksOf(historyKey, runId)]
  const artifacts: Artifact[] = []
  for (const output of rows.outputsOf(historyKey, runId))
    artifacts.push(artifacts.length < MAX_READ_PER_RUN ? output : { ...output, inlineText: '' })
  return { ...read.head, tasks, artifacts }
}

export async function compareRuns(
  services: CompareServices,
  connection: Connection,
  runA: string,
  runB: string,
  signal?: AbortSignal,
): Promise<ComparisonView> {
  const [a, b] = await Promise.all([
    runOf(services, connection, runA, signal),
    runOf(services, connection, runB, signal),
  ])
  const [outA, outB] = await Promise.all([loadOutputs(connection, a), loadOutputs(connection, b)])
  const left = sideRows(services, connection, a, outA)
  const right = sideRows(services, connection, b, outB)
  const rows = compareRows(left.rows, right.rows)
  const byRun = (runId: string) => services.submissions.byRun(connection.historyKey, runId)
  const inputNames = await inputNamesOf(services, connection, byRun(runA) ?? byRun(runB), signal)
  const notRead = [...outA.values(), ...outB.values()].filter((o) => !o.read).length
  return {
    environment: connection.name,
    unitLabel: connection.unitLabel,
    a: left.side,
    b: right.side,
    rows,
    differing: rows.filter((r) => r.differs).length,
    notRead,
    inputNames,
  }
}
