/** `validate`, `run`, `execute`, `runs watch`, `runs retry-failed` and `history`. */
import { resolve } from 'node:path'
import type { Connection, Engine } from '../../core/engine'
import {
  checkSpendingCap,
  describePlan,
  executePlan,
  planExecution,
  planRetryFailed,
  runTemplate,
  submitTemplateRetry,
  validateOnServer,
  type ExecutionPlan,
  type ProgressHooks,
  type RowSelection,
} from '../../core/execution'
import { describeAge, templateSchema } from '../../core/schema-cache'
import { annotateWorkbook } from '../../core/workbooks'
import type { Submission } from '../../core/submissions'
import type { RunSummary, WorkbookValidation } from '../../shared/contract'
import { isTerminalStatus } from '../../shared/contract'
import { runProgressText, statusLabel } from '../../shared/format'
import { flag, stringOption, type Command, type CommandContext } from '../command'
import { EXIT, UsageError } from '../errors'
import { table } from '../output'
import { askYes } from '../prompt'
import { readWorkbookWith, workbookReader } from '../workbook-reader'
import { describeRun } from './runs'
import { integerOption } from './system'
import { isoOf } from './templates'

function hooks(ctx: CommandContext): ProgressHooks {
  return {
    signal: ctx.signal,
    onStep: (line) => ctx.out.note(line),
    onUpload: (p) => {
      const { overall } = p
      if (overall.totalBytes > 0) {
        ctx.out.progress(
          `uploading ${overall.doneFiles}/${overall.totalFiles} files, ${Math.floor((100 * overall.sentBytes) / overall.totalBytes)}%`,
        )
      }
    },
  }
}

function describeValidation(v: WorkbookValidation): string {
  if (v.valid) return 'The workbook is valid.'
  const lines = [...v.fileErrors.map((e) => `file: ${e}`), ...v.rowErrors.map((e) => e.error)]
  const shown = lines.slice(0, 50)
  if (lines.length > shown.length)
    shown.push(`... and ${lines.length - shown.length} more problems`)
  return `The workbook has ${lines.length} problem${lines.length === 1 ? '' : 's'}:\n${shown.map((l) => `  ${l}`).join('\n')}`
}

function rejected(ctx: CommandContext, validation: WorkbookValidation): number {
  ctx.out.result(validation, () => `${describeValidation(validation)}\nNothing was sent.`)
  return EXIT.no
}

/** Follows a run to its end with progress on stderr; returns the final detail. */
async function watchToEnd(
  ctx: CommandContext,
  engine: Engine,
  connection: Connection,
  runId: string,
) {
  const watcher = engine.watcher(connection, { minMs: 500, maxMs: 5000 })
  watcher.on('progress', (run: RunSummary) =>
    ctx.out.progress(`${run.runId}: ${statusLabel(run.status)}, ${runProgressText(run)}`),
  )
  watcher.on('error', (error) =>
    ctx.out.note(
      `still watching; the last look failed: ${error instanceof Error ? error.message : String(error)}`,
    ),
  )
  try {
    await Promise.race([
      watcher.waitFor(runId),
      ctx.interrupted.then(() => {
        throw new UsageError(
          'stopped watching (the run goes on; see it with `skill-runner runs show`).',
          '',
        )
      }),
    ])
  } finally {
    watcher.stop()
    ctx.out.endProgress()
  }
  const detail = await connection.client.run(runId, { signal: ctx.signal })
  engine.recordRuns(connection.key, [detail.run])
  return detail
}

function parseRows(value: string | undefined): RowSelection {
  if (value === undefined) return {}
  const match = /^(\d+)?-(\d+)?$|^(\d+)$/.exec(value.trim())
  if (!match) throw new UsageError(`--rows must look like 2-11 (spreadsheet rows), got “${value}”.`)
  if (match[3]) return { fromRow: Number(match[3]), toRow: Number(match[3]) }
  return {
    ...(match[1] ? { fromRow: Number(match[1]) } : {}),
    ...(match[2] ? { toRow: Number(match[2]) } : {}),
  }
}

function submittedJson(s: Submission) {
  const answer = s.answer as { status?: string; acceptedAtUnix?: number } | null
  return {
    runId: s.runId,
    status: answer?.status ?? '',
    acceptedAtUnix: answer?.acceptedAtUnix ?? 0,
    clientRequestId: s.clientRequestId,
  }
}

async function finishSubmission(
  ctx: CommandContext,
  engine: Engine,
  connection: Connection,
  s: Submission,
  watch: boolean,
  market: boolean,
) {
  ctx.out.note(`run ${s.runId} accepted`)
  if (watch) {
    const detail = await watchToEnd(ctx, engine, connection, s.runId)
    ctx.out.result(detail, () => describeRun(detail, connection.unitLabel))
    return detail.run.status === 'succeeded' && detail.run.failedTasks === 0 ? EXIT.ok : EXIT.no
  }
  const result = market ? s.answer : submittedJson(s)
  ctx.out.result(
    result,
    () =>
      `run ${s.runId} (request ${s.clientRequestId}); follow it with: skill-runner runs watch ${s.runId}`,
  )
  return EXIT.ok
}

export const validate: Command = {
  name: 'validate',
  summary:
    'Check a workbook: offline against a template (--template), or on the service for a listing (--listing --version).',
  usage: 'validate FILE (--template ID | --listing ID --version VID) [--annotate OUT.xlsx]',
  options: {
    annotate: { type: 'string' },
    template: { type: 'string' },
    listing: { type: 'string' },
    version: { type: 'string' },
  },
  positionals: { min: 1, max: 1, names: 'a workbook FILE' },
  async run(ctx, args) {
    const file = args.positionals[0]!
    const templateId = stringOption(args, 'template')
    const listingId = stringOption(args, 'listing')
    const versionId = stringOption(args, 'version')
    if (Boolean(templateId) === Boolean(listingId))
      throw new UsageError(
        'give either --template ID or --listing ID --version VID.',
        `Usage: skill-runner ${validate.usage}`,
      )
    let validation: WorkbookValidation
    const connection = await ctx.connect()
    if (templateId) {
      const engine = await ctx.engine()
      const cached = await templateSchema(engine.db, connection, templateId, { signal: ctx.signal })
      if (cached.fromCache)
        ctx.out.note(
          `working offline with the copy of the template saved ${describeAge(cached.fetchedAtMs)}`,
        )
      const parsed = await readWorkbookWith(ctx, { keepRows: false })(file, cached.schema)
      validation = {
        valid: parsed.valid,
        fileErrors: parsed.fileErrors,
        rowErrors: parsed.rowErrors,
      }
      const annotatePath = stringOption(args, 'annotate')
      if (annotatePath) {
        const annotated = await annotateWorkbook(file, parsed, resolve(annotatePath))
        ctx.out.note(
          `annotated copy: ${annotated.path} (${annotated.markedCells} cell${annotated.markedCells === 1 ? '' : 's'} marked; the Errors sheet lists every problem)`,
        )
      }
    } else {
      if (!versionId)
        throw new UsageError(
          '--listing needs --version VID.',
          `Usage: skill-runner ${validate.usage}`,
        )
      if (stringOption(args, 'annotate'))
        throw new UsageError(
          '--annotate works with --template (offline validation), where every problem has its cell.',
          'Validate against the listing without --annotate; the problems are listed with their rows.',
        )
      validation = await validateOnServer(connection, file, listingId!, versionId, hooks(ctx))
    }
    ctx.out.result(validation, () => describeValidation(validation))
    return validation.valid ? EXIT.ok : EXIT.no
  },
}

export const run: Command = {
  name: 'run',
  summary: 'Validate a workbook, upload its files and submit its rows to an official template.',
  usage: 'run FILE --template ID [--callback-url URL] [--rows N-M] [--watch]',
  options: {
    template: { type: 'string' },
    'callback-url': { type: 'string' },
    rows: { type: 'string' },
    watch: { type: 'boolean' },
  },
  positionals: { min: 1, max: 1, names: 'a workbook FILE' },
  async run(ctx, args) {
    const templateId = stringOption(args, 'template')
    if (!templateId)
      throw new UsageError('run needs --template ID.', `Usage: skill-runner ${run.usage}`)
    const engine = await ctx.engine()
    const connection = await ctx.connect()
    const outcome = await runTemplate(
      engine,
      connection,
      workbookReader(ctx),
      {
        file: args.positionals[0]!,
        templateId,
        callbackUrl: stringOption(args, 'callback-url'),
        selection: parseRows(stringOption(args, 'rows')),
      },
      hooks(ctx),
    )
    if (!outcome.ok) return rejected(ctx, outcome.validation)
    return finishSubmission(ctx, engine, connection, outcome.submission, flag(args, 'watch'), false)
  },
}

async function confirmPlan(
  ctx: CommandContext,
  plan: ExecutionPlan,
  yes: boolean,
): Promise<boolean> {
  ctx.out.note(describePlan(plan))
  if (yes) return true
  const spend =
    plan.estimateT === null
      ? 'the cost shown after execution'
      : `${plan.estimateT} ${plan.unitLabel}`
  const confirmed = await askYes(ctx, `Type "yes" to execute and spend ${spend}:`)
  if (!confirmed) {
    ctx.out.note(
      ctx.stdin.isTTY
        ? 'Not confirmed; nothing was executed.'
        : 'Nothing was executed: confirm with --yes (there is no terminal to ask at).',
    )
  }
  return confirmed
}

export const execute: Command = {
  name: 'execute',
  summary:
    'Validate a workbook on the service, show the cost, and execute a marketplace listing only when confirmed.',
  usage: 'execute FILE --listing ID --version VID [--yes] [--max-cost N] [--pilot N] [--watch]',
  options: {
    listing: { type: 'string' },
    version: { type: 'string' },
    yes: { type: 'boolean' },
    'max-cost': { type: 'string' },
    pilot: { type: 'string' },
    watch: { type: 'boolean' },
  },
  positionals: { min: 1, max: 1, names: 'a workbook FILE' },
  async run(ctx, args) {
    const listingId = stringOption(args, 'listing')
    const versionId = stringOption(args, 'version')
    if (!listingId || !versionId)
      throw new UsageError(
        'execute needs --listing ID and --version VID.',
        `Usage: skill-runner ${execute.usage}`,
      )
    const maxCostT = integerOption(
      stringOption(args, 'max-cost'),
      '--max-cost',
      0,
      Number.MAX_SAFE_INTEGER,
    )
    const pilot = integerOption(stringOption(args, 'pilot'), '--pilot', 1, 1_000_000)
    const engine = await ctx.engine()
    const connection = await ctx.connect()
    const plan = await planExecution(
      connection,
      workbookReader(ctx),
      {
        file: args.positionals[0]!,
        listingId,
        listingVersionId: versionId,
        selection: pilot ? { first: pilot } : {},
      },
      hooks(ctx),
    )
    if (!plan.ok) return rejected(ctx, plan.validation)
    // The cap is checked before asking, so nobody confirms what would be refused.
    checkSpendingCap(plan, maxCostT)
    if (!(await confirmPlan(ctx, plan, flag(args, 'yes')))) return EXIT.no
    const done = await executePlan(
      engine,
      connection,
      plan,
      { confirmed: true, maxCostT },
      hooks(ctx),
    )
    return finishSubmission(ctx, engine, connection, done.submission, flag(args, 'watch'), true)
  },
}

export const runsWatch: Command = {
  name: 'runs watch',
  summary: 'Follow a run until it ends, with progress on stderr; prints the final run detail.',
  usage: 'runs watch RUN',
  positionals: { min: 1, max: 1, names: 'a RUN id' },
  async run(ctx, args) {
    const engine = await ctx.engine()
    const connection = await ctx.connect()
    const runId = args.positionals[0]!
    const first = await connection.client.run(runId, { signal: ctx.signal })
    const detail = isTerminalStatus(first.run.status)
      ? first
      : await watchToEnd(ctx, engine, connection, runId)
    ctx.out.result(detail, () => describeRun(detail, connection.unitLabel))
    return detail.run.status === 'succeeded' && detail.run.failedTasks === 0 ? EXIT.ok : EXIT.no
  },
}

export const runsRetryFailed: Command = {
  name: 'runs retry-failed',
  summary: 'Submit a new run with only the failed rows of a finished run made from this computer.',
  usage: 'runs retry-failed RUN [--yes] [--max-cost N] [--watch]',
  options: { yes: { type: 'boolean' }, 'max-cost': { type: 'string' }, watch: { type: 'boolean' } },
  positionals: { min: 1, max: 1, names: 'a RUN id' },
  async run(ctx, args) {
    const engine = await ctx.engine()
    const connection = await ctx.connect()
    const maxCostT = integerOption(
      stringOption(args, 'max-cost'),
      '--max-cost',
      0,
      Number.MAX_SAFE_INTEGER,
    )
    const retry = await planRetryFailed(engine, connection, args.positionals[0]!, ctx.signal)
    ctx.out.note(
      `${retry.rows.length} failed row${retry.rows.length === 1 ? '' : 's'} (spreadsheet rows ${retry.rowNumbers.join(', ')})`,
    )
    if (!retry.execution) {
      const done = await submitTemplateRetry(engine, connection, retry, hooks(ctx))
      return finishSubmission(ctx, engine, connection, done.submission, flag(args, 'watch'), false)
    }
    checkSpendingCap(retry.execution, maxCostT)
    if (!(await confirmPlan(ctx, retry.execution, flag(args, 'yes')))) return EXIT.no
    const done = await executePlan(
      engine,
      connection,
      retry.execution,
      { confirmed: true, maxCostT, retryOfRunId: retry.original.runId },
      hooks(ctx),
    )
    return finishSubmission(ctx, engine, connection, done.submission, flag(args, 'watch'), true)
  },
}

export const history: Command = {
  name: 'history',
  summary:
    'The submissions made from this computer, newest first; --search matches file, template, listing, run, status or date.',
  usage: 'history [--search Q] [--limit N]',
  options: { search: { type: 'string' }, limit: { type: 'string' } },
  async run(ctx, args) {
    const engine = await ctx.engine()
    const limit = integerOption(stringOption(args, 'limit'), '--limit', 1, 100_000) ?? 200
    const entries = engine.submissions.search({ search: stringOption(args, 'search'), limit })
    const items = entries.map((s) => ({
      id: s.id,
      environment: s.environment,
      target:
        s.targetKind === 'listing'
          ? { listingId: s.targetId, listingVersionId: s.listingVersionId }
          : { templateId: s.targetId },
      inputFilename: s.inputFilename,
      rowCount: s.rowCount,
      state: s.state,
      runId: s.runId,
      clientRequestId: s.clientRequestId,
      estimatedCostT: s.estimatedCostT,
      retryOfRunId: s.retryOfRunId,
      error: s.error,
      createdAt: new Date(s.createdAtMs).toISOString(),
    }))
    ctx.out.result({ items }, () =>
      items.length === 0
        ? 'No submissions from this computer yet.'
        : table(
            ['WHEN', 'FILE', 'TARGET', 'ROWS', 'STATE', 'RUN'],
            entries.map((s) => [
              isoOf(Math.floor(s.createdAtMs / 1000)),
              s.inputFilename || '-',
              s.targetId,
              String(s.rowCount),
              s.state,
              s.runId || '-',
            ]),
          ),
    )
  },
}
