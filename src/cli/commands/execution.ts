/** `validate`, `run`, `execute`, `runs watch`, `runs retry-failed` and `history`. */
import { resolve } from 'node:path'
import type { Connection, Engine } from '../../core/engine'
import { validateOnServer, type ProgressHooks, type RowSelection } from '../../core/flows/spend/execution'
import {
  checkSpendingCap,
  confirmPlan,
  describePlan,
  planRetryFailed,
  planSubmission,
  rowName,
  type Plan,
} from '../../core/flows/spend'
import { followRunToEnd } from '../../core/flows/watch/follow-run'
import { checkWorkbook } from '../../core/flows/prepare'
import { listHistory } from '../../core/flows/history/history-view'
import { describeAge } from '../../core/flows/prepare/schema-cache'
import { annotateWorkbook } from '../../core/workbooks'
import type { Submission } from '../../core/flows/spend/submissions'
import type { RunSummary, WorkbookValidation } from '../../shared/contract'
import { isTerminalStatus } from '../../shared/contract'
import { formatAmount, statusLabel } from '../../shared/format'
import { flag, stringOption, type Command, type CommandContext, type ParsedArgs } from '../command'
import { EngineError } from '../../core/errors'
import { EXIT, UsageError } from '../errors'
import { table } from '../output'
import { askYes } from '../prompt'
import { workbookReader } from '../workbook-reader'
import { describeRun, numberingOf } from './runs'
import { integerOption } from './system'
import { localTime } from '../time'

function hooks(ctx: CommandContext): ProgressHooks {
  const bar = ctx.out.bar('uploading', 'bytes')
  return {
    signal: ctx.signal,
    onStep: (line) => ctx.out.note(line),
    onUpload: ({ overall }) => {
      if (overall.totalBytes > 0) {
        bar.update(
          overall.sentBytes,
          overall.totalBytes,
          `${overall.doneFiles}/${overall.totalFiles} files`,
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
  const bar = ctx.out.bar(runId, 'rows')
  try {
    return await followRunToEnd(engine, connection, runId, {
      signal: ctx.signal,
      onProgress: (run: RunSummary) => {
        const finished = run.completedTasks + run.failedTasks + run.cancelledTasks
        const failed = run.failedTasks ? `, ${run.failedTasks} failed` : ''
        bar.update(finished, run.totalTasks, `${statusLabel(run.status)}${failed}`)
      },
      onError: (error) =>
        ctx.out.note(
          `still watching; the last look failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      stop: ctx.interrupted.then(
        () =>
          new UsageError(
            'stopped watching (the run goes on; see it with `skill-runner runs show`).',
            '',
          ),
      ),
    })
  } finally {
    ctx.out.endProgress()
  }
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

/** What a spending command prints: the run, or with --watch its final detail (and a pilot's lesson). */
async function finishSubmission(
  ctx: CommandContext,
  engine: Engine,
  plan: Plan,
  s: Submission,
  watch: boolean,
) {
  const connection = plan.connection
  ctx.out.note(`run ${s.runId} accepted`)
  if (watch) {
    const detail = await watchToEnd(ctx, engine, connection, s.runId)
    ctx.out.result(detail, () =>
      describeRun(detail, connection.unitLabel, numberingOf(engine, connection, detail)),
    )
    if (plan.pilotRows) notePilotLesson(ctx, plan, detail.run)
    return detail.run.status === 'succeeded' && detail.run.failedTasks === 0 ? EXIT.ok : EXIT.no
  }
  const result = s.targetKind === 'listing' ? s.answer : submittedJson(s)
  ctx.out.result(
    result,
    () =>
      `run ${s.runId} (request ${s.clientRequestId}); follow it with: skill-runner runs watch ${s.runId}`,
  )
  return EXIT.ok
}

/** After a pilot ends: what the rest would cost at the pilot's actual cost per row. */
function notePilotLesson(ctx: CommandContext, plan: Plan, run: RunSummary) {
  const unit = plan.connection.unitLabel
  const rest = plan.totalRows - plan.rows.length
  if (rest <= 0) return
  const next = (plan.rowNumbers[plan.rowNumbers.length - 1] ?? 1) + 1
  if (run.completedTasks <= 0) {
    ctx.out.note(
      `The pilot had no succeeded row, so the cost per row is still unknown. Fix the failed rows and try the pilot again.`,
    )
    return
  }
  const restT = Math.ceil((run.actualCostT * rest) / run.completedTasks)
  ctx.out.note(
    `The pilot cost ${run.actualCostT} ${unit} for ${run.completedTasks} succeeded row${run.completedTasks === 1 ? '' : 's'}; the other ${rest} row${rest === 1 ? '' : 's'} would cost about ${restT} ${unit} (estimate from the pilot). Send them with --rows ${next}-.`,
  )
}

/**
 * The spending guard every paid command shares: shows the plan, answers an accepted duplicate
 * with the earlier run unless --again, checks the cap before asking, and asks (or needs --yes).
 * Returns the exit code to stop with, or null to go on and send.
 */
async function guardSpending(
  ctx: CommandContext,
  plan: Plan,
  options: { yes: boolean; again: boolean; maxCostT: number | undefined; ask: boolean },
): Promise<{ stop: number } | { earlier: Submission } | null> {
  ctx.out.note(describePlan(plan))
  if (plan.duplicateOf && !options.again) {
    ctx.out.note(
      `Nothing was sent: the same rows were already sent and accepted as run ${plan.duplicateOf.runId}. That run is shown; to start a new paid run with the same rows, add --again.`,
    )
    return { earlier: plan.duplicateOf }
  }
  if (plan.unansweredOf) {
    ctx.out.note(
      `An identical submission (request ${plan.unansweredOf.clientRequestId}) was sent earlier without an answer; it is sent again with the same request ID, so it makes at most one run.`,
    )
  }
  // The cap is checked before asking, so nobody confirms what would be refused.
  checkSpendingCap(plan, options.maxCostT)
  if (!options.ask || options.yes) return null
  const spend =
    plan.estimateT === null
      ? 'the cost shown after the run'
      : `about ${plan.estimateT} ${plan.connection.unitLabel}`
  const confirmed = await askYes(ctx, `Type "yes" to send it and spend ${spend}:`)
  if (confirmed) return null
  ctx.out.note(
    ctx.stdin.isTTY
      ? 'Not confirmed; nothing was sent.'
      : 'Nothing was sent: confirm with --yes (there is no terminal to ask at).',
  )
  return { stop: EXIT.no }
}

function spendingOptions(args: ParsedArgs) {
  return {
    yes: flag(args, 'yes'),
    again: flag(args, 'again'),
    maxCostT: integerOption(
      stringOption(args, 'max-cost'),
      '--max-cost',
      0,
      Number.MAX_SAFE_INTEGER,
    ),
  }
}

/** Plans, guards and sends: the flow of run, execute and runs retry-failed. */
async function spend(
  ctx: CommandContext,
  engine: Engine,
  plan: Plan,
  args: ParsedArgs,
  ask: boolean,
): Promise<number> {
  if (!plan.validation.valid) return rejected(ctx, plan.validation)
  const options = spendingOptions(args)
  const guard = await guardSpending(ctx, plan, { ...options, ask })
  if (guard && 'stop' in guard) return guard.stop
  if (guard && 'earlier' in guard) {
    engine.plans.drop(plan.id)
    return finishSubmission(ctx, engine, plan, guard.earlier, flag(args, 'watch'))
  }
  const done = await confirmPlan(
    engine,
    plan,
    { confirmed: true, maxCostT: options.maxCostT, again: options.again },
    hooks(ctx),
  )
  if (done.againOf) ctx.out.note(`sent again on purpose (the earlier run is ${done.againOf.runId})`)
  return finishSubmission(ctx, engine, plan, done.submission, flag(args, 'watch'))
}

const spendingFlags = {
  'max-cost': { type: 'string' },
  again: { type: 'boolean' },
} as const

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
    let annotateFailed = false
    const connection = await ctx.connect()
    if (templateId) {
      const engine = await ctx.engine()
      let last = Date.now()
      const { found, result: parsed } = await checkWorkbook(engine, connection, file, {
        target: { kind: 'template', templateId },
        keepCells: false,
        checkFiles: true,
        signal: ctx.signal,
        onProgress: (rows) => {
          if (Date.now() - last < 1000) return
          last = Date.now()
          ctx.out.progress(`checking the workbook: ${rows.toLocaleString('en-US')} rows read`)
        },
      })
      ctx.out.endProgress()
      if (found?.fromCache && found.fetchedAtMs !== null)
        ctx.out.note(
          `working offline with the copy of the template saved ${describeAge(found.fetchedAtMs)}`,
        )
      validation = {
        valid: parsed.valid,
        fileErrors: parsed.fileErrors,
        rowErrors: parsed.rowErrors,
      }
      for (const notice of parsed.notices ?? []) ctx.out.note(notice)
      const annotatePath = stringOption(args, 'annotate')
      if (annotatePath && parsed.unreadable) {
        ctx.out.note(
          'no annotated copy: the file could not be read, so there are no cells to mark (the problem is below).',
        )
      } else if (annotatePath) {
        // The check itself is done: a copy that cannot be written must not lose its result.
        try {
          const annotated = await annotateWorkbook(file, parsed, resolve(annotatePath))
          ctx.out.note(
            `annotated copy: ${annotated.path} (${annotated.markedCells} cell${annotated.markedCells === 1 ? '' : 's'} marked; the Errors sheet lists every problem)`,
          )
        } catch (error) {
          if (ctx.signal.aborted) throw error
          annotateFailed = true
          const nextStep = error instanceof EngineError ? ` ${error.nextStep}` : ''
          ctx.out.note(
            `no annotated copy: it could not be written to ${resolve(annotatePath)}: ${error instanceof Error ? error.message : String(error)}${nextStep} (the validation result is below).`,
          )
        }
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
    // An invalid workbook says so first; a valid one whose copy failed still did not finish.
    return validation.valid ? (annotateFailed ? EXIT.other : EXIT.ok) : EXIT.no
  },
}

export const run: Command = {
  name: 'run',
  summary: 'Validate a workbook, upload its files and submit its rows to an official template.',
  usage:
    'run FILE --template ID [--callback-url URL] [--rows N-M] [--max-cost N] [--again] [--watch]',
  options: {
    template: { type: 'string' },
    'callback-url': { type: 'string' },
    rows: { type: 'string' },
    watch: { type: 'boolean' },
    ...spendingFlags,
  },
  positionals: { min: 1, max: 1, names: 'a workbook FILE' },
  async run(ctx, args) {
    const templateId = stringOption(args, 'template')
    if (!templateId)
      throw new UsageError('run needs --template ID.', `Usage: skill-runner ${run.usage}`)
    spendingOptions(args)
    const engine = await ctx.engine()
    const connection = await ctx.connect()
    const plan = await planSubmission(
      engine,
      connection,
      workbookReader(ctx),
      {
        file: args.positionals[0]!,
        target: { kind: 'template', templateId, callbackUrl: stringOption(args, 'callback-url') },
        selection: parseRows(stringOption(args, 'rows')),
      },
      hooks(ctx),
    )
    return spend(ctx, engine, plan, args, false)
  },
}

export const execute: Command = {
  name: 'execute',
  summary:
    'Validate a workbook on the service, show the cost, and execute a marketplace listing only when confirmed.',
  usage:
    'execute FILE --listing ID --version VID [--yes] [--max-cost N] [--pilot N | --rows N-M] [--again] [--watch]',
  options: {
    listing: { type: 'string' },
    version: { type: 'string' },
    yes: { type: 'boolean' },
    pilot: { type: 'string' },
    rows: { type: 'string' },
    watch: { type: 'boolean' },
    ...spendingFlags,
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
    const pilot = integerOption(stringOption(args, 'pilot'), '--pilot', 1, 1_000_000)
    if (pilot !== undefined && stringOption(args, 'rows') !== undefined)
      throw new UsageError('give either --pilot N or --rows N-M, not both.')
    spendingOptions(args)
    const engine = await ctx.engine()
    const connection = await ctx.connect()
    const plan = await planSubmission(
      engine,
      connection,
      workbookReader(ctx),
      {
        file: args.positionals[0]!,
        target: { kind: 'listing', listingId, listingVersionId: versionId },
        selection: pilot ? { first: pilot } : parseRows(stringOption(args, 'rows')),
      },
      hooks(ctx),
    )
    return spend(ctx, engine, plan, args, true)
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
    ctx.out.result(detail, () =>
      describeRun(detail, connection.unitLabel, numberingOf(engine, connection, detail)),
    )
    return detail.run.status === 'succeeded' && detail.run.failedTasks === 0 ? EXIT.ok : EXIT.no
  },
}

export const runsRetryFailed: Command = {
  name: 'runs retry-failed',
  summary:
    'Submit a new run with only the failed rows of a finished run made from this computer (asks first, or --yes).',
  usage: 'runs retry-failed RUN [--yes] [--max-cost N] [--again] [--watch]',
  options: { yes: { type: 'boolean' }, watch: { type: 'boolean' }, ...spendingFlags },
  positionals: { min: 1, max: 1, names: 'a RUN id' },
  async run(ctx, args) {
    spendingOptions(args)
    const engine = await ctx.engine()
    const connection = await ctx.connect()
    const plan = await planRetryFailed(engine, connection, args.positionals[0]!, ctx.signal)
    ctx.out.note(
      `${plan.rows.length} failed row${plan.rows.length === 1 ? '' : 's'}: ${plan.rowNumbers.map((n) => rowName(plan, n)).join(', ')}`,
    )
    return spend(ctx, engine, plan, args, true)
  },
}

export const history: Command = {
  name: 'history',
  summary:
    'The submissions made from this computer, newest first, with their run’s latest status and cost; --search matches file, template, listing, run, status or date.',
  usage: 'history [--search Q] [--limit N]',
  options: { search: { type: 'string' }, limit: { type: 'string' } },
  async run(ctx, args) {
    const engine = await ctx.engine()
    const limit = integerOption(stringOption(args, 'limit'), '--limit', 1, 100_000) ?? 200
    // Runs still under way are looked at again first (when the service answers).
    const connection = await ctx.connect().catch(() => null)
    if (connection) await engine.history.followUnfinished(connection, 20, ctx.signal)
    const page = listHistory(
      engine.history,
      engine.submissions,
      (name) => engine.environments.find(name)?.unitLabel ?? 'credits',
      { search: stringOption(args, 'search'), limit },
    )
    const entries = engine.submissions.search({ search: stringOption(args, 'search'), limit })
    const byId = new Map(entries.map((s) => [s.id, s]))
    const items = page.items.map((view) => {
      const s = byId.get(view.id)
      return {
        id: view.id,
        environment: view.environment,
        target:
          view.targetKind === 'listing'
            ? { listingId: view.target, listingVersionId: s?.listingVersionId ?? '' }
            : { templateId: view.target },
        inputFilename: view.inputFilename,
        rowCount: view.rows,
        state: view.state,
        runId: view.runId,
        runStatus: view.runStatus,
        clientRequestId: s?.clientRequestId ?? '',
        estimatedCostT: s?.estimatedCostT ?? null,
        costT: view.costT,
        costIsEstimate: view.costIsEstimate,
        retryOfRunId: view.retryOfRunId,
        error: view.error,
        createdAt: new Date(view.createdAtMs).toISOString(),
      }
    })
    ctx.out.result({ items }, () =>
      items.length === 0
        ? 'No submissions from this computer yet.'
        : table(
            ['WHEN', 'FILE', 'TARGET', 'ROWS', 'STATE', 'RUN', 'STATUS', 'COST'],
            page.items.map((v) => [
              localTime(Math.floor(v.createdAtMs / 1000)),
              v.inputFilename || '-',
              v.target,
              String(v.rows),
              v.state,
              v.runId || '-',
              v.runStatus ? statusLabel(v.runStatus) : '-',
              v.runId
                ? `${v.costIsEstimate ? 'about ' : ''}${formatAmount(v.costT, v.unitLabel)}`
                : '-',
            ]),
          ),
    )
  },
}
