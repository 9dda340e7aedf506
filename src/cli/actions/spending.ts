/**
 * The consent every paid command shares (`run`, `execute`, `runs retry-failed`): show the plan,
 * answer an accepted duplicate with its earlier run, check the cap, ask (or need --yes), send,
 * then print the run or, with --watch, follow it to its end.
 */
import { refuseOverLimit, withMonthlyLimit, type LimitServices } from '../../core/flows/usage/limit'
import type { SpendServices } from '../../core/flows/spend/plan'
import { checkSpendingCap, confirmPlan, describePlan, type Plan } from '../../core/flows/spend'
import { estimateFacts } from '../../core/flows/spend/describe-plan'
import {
  amountT,
  estimateWords,
  formatAmount,
  plural,
  type AmountT,
} from '../../shared/format/amounts'
import type { SubmissionHead } from '../../core/flows/spend/submissions'
import type { RunDetail, RunSummary, WorkbookValidation } from '../../shared/contract'
import { flag, integerOption, stringOption, type CommandContext, type ParsedArgs } from '../command'
import { EXIT } from '../errors'
import { askYes } from '../prompt'
import { flowHooks } from './flow-hooks'
import { describeRun, numberingOf } from './runs'
import { describeValidation } from '../template-check'
import { exitCodeOfEndedRun, watchToEnd, type WatchToEndServices } from './watch'

/** What a paid command uses of the engine: to plan, keep the limit, send and follow the run. */
type SpendingServices = SpendServices & LimitServices & WatchToEndServices

function rejected(ctx: CommandContext, validation: WorkbookValidation): number {
  ctx.out.result(validation, () => `${describeValidation(validation)}\nNothing was sent.`)
  return EXIT.no
}

function submittedJson(s: SubmissionHead) {
  const answer = s.answer as { status?: string; acceptedAtUnix?: number } | null
  return {
    runId: s.runId,
    status: answer?.status ?? '',
    acceptedAtUnix: answer?.acceptedAtUnix ?? 0,
    clientRequestId: s.clientRequestId,
  }
}

/**
 * What a spending command prints: the run, or with --watch its final detail (and a pilot's
 * lesson). Rows sent as parts print each part's run, and --watch follows every part to its end.
 */
async function finishSubmission(
  ctx: CommandContext,
  engine: SpendingServices,
  plan: Plan,
  sent: SubmissionHead[],
  watch: boolean,
) {
  if (sent.length > 1) return finishParts(ctx, engine, plan, sent, watch)
  const s = sent[0]!
  const connection = plan.connection
  ctx.out.note(`run ${s.runId} accepted`)
  if (watch) {
    const detail = await watchToEnd(ctx, engine, connection, s.runId)
    ctx.out.result(detail, () =>
      describeRun(detail, connection.unitLabel, numberingOf(engine, connection, detail)),
    )
    if (plan.pilotRows) notePilotLesson(ctx, plan, detail.run)
    return exitCodeOfEndedRun(detail.run)
  }
  const result = s.targetKind === 'listing' ? s.answer : submittedJson(s)
  ctx.out.result(
    result,
    () =>
      `run ${s.runId} (request ${s.clientRequestId}); follow it with: skill-runner runs watch ${s.runId}`,
  )
  return EXIT.ok
}

/** Rows sent as parts: each part's run, and with --watch every part followed to its end. */
async function finishParts(
  ctx: CommandContext,
  engine: SpendingServices,
  plan: Plan,
  sent: SubmissionHead[],
  watch: boolean,
) {
  const connection = plan.connection
  const count = sent.length
  sent.forEach((s, i) => ctx.out.note(`part ${i + 1} of ${count}: run ${s.runId} accepted`))
  const parts = sent.map((s, i) => ({ part: i + 1, rows: s.rowCount, ...submittedJson(s) }))
  if (!watch) {
    ctx.out.result({ ...parts[0]!, parts }, () =>
      [
        ...parts.map(
          (p) => `part ${p.part} of ${count}: run ${p.runId} (request ${p.clientRequestId})`,
        ),
        `follow them with: skill-runner batch show ${sent[0]!.runId}`,
      ].join('\n'),
    )
    return EXIT.ok
  }
  const details: RunDetail[] = []
  for (const s of sent) details.push(await watchToEnd(ctx, engine, connection, s.runId))
  ctx.out.result({ ...details[0]!, parts: details }, () =>
    details
      .map(
        (d, i) =>
          `part ${i + 1} of ${count}: ${describeRun(d, connection.unitLabel, numberingOf(engine, connection, d))}`,
      )
      .join('\n\n'),
  )
  return Math.max(...details.map((d) => exitCodeOfEndedRun(d.run)))
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
    `The pilot cost ${formatAmount(run.actualCostT, unit)} for ${plural(run.completedTasks, 'succeeded row')}; the other ${plural(rest, 'row')} would cost about ${formatAmount(restT, unit)} (estimate from the pilot). Send them with --rows ${next}-, or as one batch with the pilot: skill-runner run --rest-of ${run.runId}`,
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
  options: { yes: boolean; again: boolean; maxCostT: AmountT | undefined },
): Promise<{ stop: number } | { earlier: SubmissionHead } | null> {
  ctx.out.note(describePlan(plan))
  if (plan.duplicateOf && !options.again) {
    ctx.out.note(
      `Nothing was sent: the same rows were already sent and accepted as run ${plan.duplicateOf.runId}. That run is shown; to start a new paid run with the same rows, add --again.`,
    )
    return { earlier: plan.duplicateOf }
  }
  if (plan.paidBefore && !plan.redo && !options.again) {
    ctx.out.note(
      `Nothing was sent: ${plan.paidBefore.words} To send only the rows not sent yet, use run --rest-of ${plan.paidBefore.runIds[0]}; to pay for these rows again, add --again.`,
    )
    return { stop: EXIT.no }
  }
  if (plan.unansweredOf) {
    ctx.out.note(
      `An identical submission (request ${plan.unansweredOf.clientRequestId}) was sent earlier without an answer; it is sent again with the same request ID, so it makes at most one run.`,
    )
  }
  // The cap is checked before asking, so nobody confirms what would be refused.
  checkSpendingCap(plan, options.maxCostT)
  if (plan.monthlyLimit) refuseOverLimit(plan.monthlyLimit, plan)
  if (options.yes) return null
  const facts = estimateFacts(plan)
  const question =
    plan.estimateT === null
      ? `Send ${plural(facts.rowCount, 'row')}? The cost is unknown before the run; you pay what it actually costs.`
      : `Send ${plural(facts.rowCount, 'row')} and pay ${estimateWords(facts)}?`
  const confirmed = await askYes(ctx, question)
  if (confirmed) return null
  ctx.out.note(
    ctx.stdin.isTTY
      ? 'Not confirmed; nothing was sent.'
      : 'Nothing was sent: confirm with --yes (there is no terminal to ask at).',
  )
  return { stop: EXIT.no }
}

export function spendingOptions(args: ParsedArgs) {
  const cap = integerOption(
    stringOption(args, 'max-cost'),
    '--max-cost',
    0,
    Number.MAX_SAFE_INTEGER,
  )
  return {
    yes: flag(args, 'yes'),
    again: flag(args, 'again'),
    maxCostT: cap === undefined ? undefined : amountT(cap),
  }
}

/** Plans, guards and sends: the flow of run, execute and runs retry-failed. */
export async function spend(
  ctx: CommandContext,
  engine: SpendingServices,
  plan: Plan,
  args: ParsedArgs,
): Promise<number> {
  if (!plan.validation.valid) return rejected(ctx, plan.validation)
  const options = spendingOptions(args)
  const guard = await guardSpending(ctx, await withMonthlyLimit(engine, plan), options)
  if (guard && 'stop' in guard) return guard.stop
  if (guard && 'earlier' in guard) {
    engine.plans.drop(plan.id)
    return finishSubmission(ctx, engine, plan, [guard.earlier], flag(args, 'watch'))
  }
  const done = await confirmPlan(
    engine,
    plan,
    { confirmed: true, maxCostT: options.maxCostT, again: options.again },
    flowHooks(ctx),
  )
  if (done.againOf) ctx.out.note(`sent again on purpose (the earlier run is ${done.againOf.runId})`)
  return finishSubmission(ctx, engine, plan, done.parts, flag(args, 'watch'))
}
