/**
 * The batch page's verbs: a run's batch with its counts and runs, a window of its sheet rows,
 * and chosen rows as a plan confirmed through confirmSubmission like any paid send.
 */
import type { BatchRowFilter, BatchRowView, BatchSendKind } from '../../../shared/bridge'
import { EngineError } from '../../errors'
import type { BatchRow } from '../../flows/batch/row-states'
import { shownPreview } from '../../flows/batch/file-preview'
import { targetNamer } from '../../flows/history/target-names'
import { planBatchRowsFromSheet } from '../../flows/spend/plan-rest'
import type { SendServices } from '../../flows/spend/plan-send'
import { sendReader } from '../files'
import { planView } from '../presenters/plan-view'
import type { Engine } from '../../engine'
import type { Connects, VerbContext, Verbs } from './context'

const MATCHES: Record<BatchRowFilter, (row: BatchRow) => boolean> = {
  all: () => true,
  'not-sent': (r) => r.state === 'not-sent',
  'set-aside': (r) => r.state === 'set-aside',
  failed: (r) => r.state === 'failed',
  succeeded: (r) => r.state === 'succeeded',
  pending: (r) => r.state === 'pending',
  'sent-again': (r) => r.sends > 1,
}

function rowView(row: BatchRow): BatchRowView {
  return {
    sheetRow: row.sheetRow,
    state: row.state,
    sends: row.sends,
    runId: row.runId,
    keptRunId: row.keptRunId,
    problems: row.problems,
    preview: row.preview,
  }
}

function noBatch(batchId: string): EngineError {
  return new EngineError(
    'not-found',
    `There is no batch ${batchId} on this computer.`,
    'Open the batch from one of its runs.',
  )
}

/** What the batch page's verbs use of the engine. */
type BatchServices = Connects &
  SendServices &
  Pick<Engine, 'batches' | 'downloads' | 'history' | 'schemas'>
type BatchVerb = 'getBatch' | 'getBatchRows' | 'planBatchRows'

export function batchVerbs(ctx: VerbContext<BatchServices>): Verbs<BatchVerb> {
  const { engine } = ctx
  const connect = (environment: string) => engine.connect({ env: environment })
  const stateOf = async (environment: string, batchId: string, offline: boolean) => {
    const connection = await connect(environment)
    const state = await engine.batches.state(connection, batchId, { offline, previews: offline })
    if (!state) throw noBatch(batchId)
    return { connection, state }
  }
  return {
    async getBatch(args) {
      const connection = await connect(args.environment)
      const batch = engine.batches.ofRun(connection.historyKey, args.runId)
      if (!batch) return null
      const state = await engine.batches.state(connection, batch.id)
      if (!state) return null
      const nameOf = targetNamer({ history: engine.history, schemas: engine.schemas })
      return {
        environment: args.environment,
        batchId: batch.id,
        targetKind: batch.targetKind,
        targetId: batch.targetId,
        targetName: nameOf({ ...batch, historyKey: connection.historyKey }, null),
        fileName: batch.inputFilename,
        sheet: batch.sheet,
        workbookSha256: batch.workbookSha256,
        counts: state.counts,
        runs: state.runs.map((s) => ({
          runId: s.runId,
          kind: (s.kind || 'all') as BatchSendKind,
          rows: s.rowCount,
          sentAtMs: s.createdAtMs,
        })),
        summary: state.summary,
        stale: state.stale,
      }
    },
    async getBatchRows(args) {
      const { connection, state } = await stateOf(args.environment, args.batchId, true)
      const filter = args.filter ?? 'all'
      const matching = filter === 'all' ? state.rows : state.rows.filter(MATCHES[filter])
      // A file output is previewed by its name, and its first line when saved here as text: each
      // row's file is looked up alone (a page's rows, not every output of their runs).
      const savedPath = (runId: string) => (artifactId: string) =>
        engine.downloads.savedPath(connection.historyKey, runId, artifactId) || undefined
      const page = matching.slice(args.from, args.from + args.count)
      return {
        environment: args.environment,
        batchId: args.batchId,
        filter,
        total: matching.length,
        from: args.from,
        rows: await Promise.all(
          page.map(async (row) => ({
            ...rowView(row),
            preview: await shownPreview(row.preview, savedPath(row.keptRunId)),
          })),
        ),
      }
    },
    async planBatchRows(args) {
      const { connection, state } = await stateOf(args.environment, args.batchId, false)
      const first = state.runs[0]
      if (!first) throw noBatch(args.batchId)
      const plan = await planBatchRowsFromSheet(engine, connection, sendReader(), {
        runId: first.runId,
        rows: args.rows,
        kind: 'chosen',
      })
      return planView(plan)
    },
  }
}
