/** `batch show`: a buyer's sheet across its runs, row by row, from the journal and the runs' outcomes. */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import type { BatchState } from '../../core/flows/batch/batches'
import { hashFile } from '../../core/flows/spend/uploads'
import { EngineError } from '../../core/errors'
import { sendKindWords } from '../../shared/format'
import {
  atMostOne,
  stringOption,
  type CommandContext,
  type Declared,
  type ParsedArgs,
} from '../command'
import { table } from '../output'

const STATE_WORDS: Record<string, string> = {
  'not-sent': 'not sent',
  'set-aside': 'set aside',
  pending: 'running',
  succeeded: 'succeeded',
  failed: 'failed',
}

export async function batchShow(ctx: CommandContext, args: ParsedArgs, self: Declared) {
  const given = args.positionals[0]!
  const template = stringOption(args, 'template')
  const listing = stringOption(args, 'listing')
  atMostOne(self, { '--template ID': template, '--listing ID': listing })
  const { engine, connection } = await ctx.session()
  const file = resolve(given)
  let batch
  if (existsSync(file)) {
    const sha256 = await hashFile(file, ctx.signal)
    const target = template
      ? ({ kind: 'template', id: template } as const)
      : listing
        ? ({ kind: 'listing', id: listing } as const)
        : undefined
    batch = engine.batches.ofFile(connection.historyKey, sha256, target)
  } else batch = engine.batches.ofRun(connection.historyKey, given)
  if (!batch)
    throw new EngineError(
      'not-found',
      existsSync(file)
        ? `${given} was not sent from this computer${template || listing ? ' to that target' : ''} in this environment.`
        : `Run ${given} was not sent from a sheet on this computer in this environment.`,
      'Name a run sent from this computer, or the workbook it was sent from.',
    )
  const state = await engine.batches.state(connection, batch.id, { signal: ctx.signal })
  if (!state)
    throw new EngineError('not-found', 'That batch is no longer here.', 'Send the sheet again.')
  if (state.stale)
    ctx.out.note(
      'the service could not be asked just now: rows of runs still going are as last seen',
    )
  ctx.out.result(batchJson(state), () => describeBatch(state))
}

function batchJson(state: BatchState) {
  const { batch } = state
  return {
    batch: {
      id: batch.id,
      target: { kind: batch.targetKind, id: batch.targetId },
      sheet: batch.sheet,
      workbookSha256: batch.workbookSha256,
      fileName: batch.inputFilename,
    },
    summary: state.summary,
    runs: state.runs.map((s) => ({ runId: s.runId, kind: s.kind, rows: s.rowCount })),
    rows: state.rows.map((r) => ({
      sheetRow: r.sheetRow,
      state: r.state,
      ...(r.sends > 1 ? { sentAgain: true } : {}),
      ...(r.runId ? { runId: r.runId } : {}),
      ...(r.keptRunId ? { keptRunId: r.keptRunId } : {}),
      ...(r.problems.length ? { problems: r.problems } : {}),
    })),
    counts: state.counts,
  }
}

function describeBatch(state: BatchState): string {
  const { batch } = state
  const runs = state.runs.map((s) => `  ${s.runId}  ${sendKindWords(s.kind)}, ${s.rowCount} rows`)
  const rows = table(
    ['SHEET ROW', 'STATE', 'RUN', 'KEPT', 'PROBLEM'],
    state.rows.map((r) => [
      String(r.sheetRow),
      `${STATE_WORDS[r.state] ?? r.state}${r.sends > 1 ? ' (sent again)' : ''}`,
      r.runId || '-',
      r.keptRunId || '-',
      r.problems[0] ?? '',
    ]),
  )
  return [
    `${batch.inputFilename || 'Sheet'}${batch.sheet ? ` (${batch.sheet})` : ''} to ${batch.targetKind} ${batch.targetId}`,
    state.summary,
    'Runs:',
    ...runs,
    '',
    rows,
  ].join('\n')
}
