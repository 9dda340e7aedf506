/**
 * The verbs that lead to spending: uploading a workbook's files, planning (spends nothing),
 * confirming (the only verb that spends), retrying failed rows, and the submissions sent earlier
 * without an answer, which are sent again with the same request id.
 */
import { amountT } from '../../../shared/format/amounts'
import { withMonthlyLimit, type LimitServices } from '../../flows/usage/limit'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type {
  RequestArgs,
  SubmissionView,
  UploadProgressUpdate,
  UploadResultView,
} from '../../../shared/bridge'
import type { Connection } from '../../environments/connection'
import { EngineError } from '../../errors'
import { safeFileName } from '../../flows/downloads/downloads'
import {
  confirmPlan,
  pilotRest,
  planRestOfPilot,
  planRetryFailed,
  type Plan,
  type SendChoices,
} from '../../flows/spend'
import { planSend, type SendServices } from '../../flows/spend/plan-send'
import type { ReadCorrected } from '../../flows/spend/retry-workbook'
import { keepSetAsideWithRun } from '../../flows/spend/set-aside'
import { parseInputWorkbook } from '../../workbooks'
import { CancellableWork } from '../cancellable-work'
import { fileAssetsOf, materialise, refusePathsOverHttp, sendReader } from '../files'
import { pendingView } from '../presenters/pending-view'
import { planView } from '../presenters/plan-view'
import { throttled } from '../types'
import type { Engine } from '../../engine'
import type { Connects, VerbContext, Verbs } from './context'
import { defined } from '../../../shared/defined'

/** What planning and confirming a send use of the engine. */
type PlanServices = Connects & SendServices & LimitServices
type SpendVerbServices = PlanServices &
  Pick<Engine, 'callbackAddresses' | 'drafts' | 'workbookWorker' | 'uploads'>

export function spendVerbs(
  ctx: VerbContext<SpendVerbServices>,
): Verbs<
  | 'uploadFiles'
  | 'planSubmission'
  | 'confirmSubmission'
  | 'planRetryFailed'
  | 'getPilotRest'
  | 'planRestOfPilot'
  | 'listPendingSubmissions'
  | 'resendPendingSubmissions'
  | 'cancelWork'
> {
  const { engine } = ctx
  /** Plannings and uploads under way that the page may stop (neither spends). */
  const work = new CancellableWork()
  const connect = (environment: string) => engine.connect({ env: environment })
  return {
    ...restOfPilotVerbs(ctx),
    ...pendingVerbs(ctx),
    async uploadFiles(args, context) {
      refusePathsOverHttp(args.files, context.transport)
      const connection = await connect(args.environment)
      const progress = throttled(
        200,
        (p: UploadProgressArgs) =>
          ctx.emit('uploadProgress', { environment: args.environment, ...p }),
        (p) => p.state !== 'hashing' && p.state !== 'uploading',
      )
      return work.run(args.workId, UPLOAD_STOPPED, (signal) =>
        uploadFiles(ctx, connection, args.files, progress, signal),
      )
    },
    async planSubmission(args, context) {
      refusePathsOverHttp([args.file], context.transport)
      const connection = await connect(args.environment)
      engine.callbackAddresses.rememberAsked(connection.historyKey, args.target, args.callbackUrl)
      const plan = await work.run(args.workId, PLANNING_STOPPED, (signal) =>
        planFromFile(ctx, connection, args, signal),
      )
      return planView(await withMonthlyLimit(engine, plan))
    },
    async cancelWork(args) {
      work.cancel(args.workId)
      return null
    },
    async confirmSubmission(args) {
      // Asked before the send: a sent plan leaves the store.
      const fromNewRun = engine.plans.get(args.planId).fromNewRun === true
      const sent = await confirmSubmission(ctx, args)
      if (fromNewRun && sent.runId) {
        const link = { runId: sent.runId, clientRequestId: sent.clientRequestId }
        // The run is sent either way: a draft not updated only shows the screen as it was.
        await engine.drafts.markSent(args.environment, link).catch(() => undefined)
      }
      return sent
    },
    async planRetryFailed(args, context) {
      if (args.file) refusePathsOverHttp([args.file], context.transport)
      const plan = await retryPlan(engine, await connect(args.environment), args)
      return planView(await withMonthlyLimit(engine, plan))
    },
  }
}

/** What was sent and never answered (a crash, a lost answer): listed, and sent again on demand. */
function pendingVerbs({
  engine,
}: VerbContext<Connects & Pick<Engine, 'submissions'>>): Verbs<
  'listPendingSubmissions' | 'resendPendingSubmissions'
> {
  /** Environments whose unanswered submissions are being sent again now. */
  const resending = new Set<string>()
  const connect = (environment: string) => engine.connect({ env: environment })
  return {
    async listPendingSubmissions(args) {
      const connection = await connect(args.environment)
      const items = engine.submissions.unanswered(connection.historyKey)
      return { environment: args.environment, items: items.map(pendingView) }
    },
    async resendPendingSubmissions(args) {
      const connection = await connect(args.environment)
      // Each is sent again with its own request id, in the background: the service makes at most
      // one run of it, and submissionUpdated tells the page how it went.
      if (
        engine.submissions.unanswered(connection.historyKey).length > 0 &&
        !resending.has(connection.historyKey)
      ) {
        resending.add(connection.historyKey)
        void engine.submissions
          .resendUnanswered(connection)
          .catch(() => [])
          .finally(() => resending.delete(connection.historyKey))
      }
      return null
    },
  }
}

/** The failed rows of a run as a plan: fixed as typed in the app, or from a corrected workbook. */
async function retryPlan(
  engine: SendServices,
  connection: Connection,
  args: RequestArgs<'planRetryFailed'>,
): Promise<Plan> {
  if (!args.file)
    return planRetryFailed(engine, connection, args.runId, undefined, args.edits ?? [])
  const { path, fileName, scratch } = await materialise(engine.home, args.file)
  try {
    const read: ReadCorrected = (file, schema, target) =>
      parseInputWorkbook({ path: file }, schema, {
        keepCells: true,
        // A sheet with its own headers is read with the mapping the user confirmed for it.
        rememberedMaps: engine.mappings.forTarget(connection.historyKey, target),
      })
    return await planRetryFailed(engine, connection, args.runId, undefined, {
      file: path,
      fileName,
      read,
    })
  } finally {
    // Only the fixes are kept (in the plan): the copy of the workbook is not needed.
    if (scratch) await rm(scratch, { recursive: true, force: true })
  }
}

/** Sends a plan the user confirmed; rows it set aside are kept with the run it became. */
async function confirmSubmission(
  ctx: VerbContext<PlanServices>,
  args: RequestArgs<'confirmSubmission'>,
): Promise<SubmissionView> {
  const { engine } = ctx
  const plan = engine.plans.get(args.planId)
  if (plan.connection.name !== args.environment) {
    throw new EngineError(
      'bad-input',
      `This confirmation belongs to “${plan.connection.name}”, not “${args.environment}”.`,
      'Check the workbook again in the environment you want to use.',
    )
  }
  // The page's choices pass whole (confirmed, again, withoutCallback), its cap as an amount.
  const done = await confirmPlan(engine, plan, {
    ...args,
    maxCostT: args.maxCostT === undefined ? undefined : amountT(args.maxCostT),
  })
  if (plan.setAside && done.submission.runId)
    // The rows are sent either way: a link that could not be written only loses the shortcut.
    await keepSetAsideWithRun(engine.home, plan.setAside, done.submission.runId).catch(
      () => undefined,
    )
  const answer = done.submission.answer as {
    status?: string
    transactionStatus?: string
  } | null
  return {
    environment: args.environment,
    clientRequestId: done.submission.clientRequestId,
    runId: done.submission.runId,
    status: answer?.status ?? answer?.transactionStatus ?? done.submission.state,
    againOf: done.againOf?.runId ?? null,
  }
}

/** After a pilot: what is left of its workbook, and the plan that sends it. */
function restOfPilotVerbs(
  ctx: VerbContext<PlanServices>,
): Verbs<'getPilotRest' | 'planRestOfPilot'> {
  const { engine } = ctx
  return {
    async getPilotRest(args) {
      const connection = await engine.connect({ env: args.environment })
      const rest = await pilotRest(engine, connection, args.runId)
      if (!rest) return null
      const { rows, ...cost } = rest
      return {
        environment: args.environment,
        rowCount: rows,
        unitLabel: connection.unitLabel,
        ...cost,
      }
    },
    async planRestOfPilot(args) {
      const connection = await engine.connect({ env: args.environment })
      const plan = await planRestOfPilot(engine, connection, sendReader(), args.runId)
      return planView(await withMonthlyLimit(engine, plan))
    },
  }
}

type UploadProgressArgs = Omit<UploadProgressUpdate, 'environment'>

const PLANNING_STOPPED = {
  message: 'Working out the cost was stopped. Nothing was sent and nothing was charged.',
  nextStep: 'Review the cost again when you are ready to send.',
}

const UPLOAD_STOPPED = {
  message:
    'The upload was stopped. Files that had not finished are not on the service; nothing was charged.',
  nextStep: 'Upload the files again when you are ready.',
}

/**
 * A dropped workbook as a send (flows/spend/plan-send.ts), read by the engine's kept workbook
 * worker, the one the check used; its temporary copy goes with the plan.
 */
async function planFromFile(
  ctx: VerbContext<SendServices & Pick<Engine, 'workbookWorker'>>,
  connection: Connection,
  args: RequestArgs<'planSubmission'>,
  signal?: AbortSignal,
): Promise<Plan> {
  const { path, fileName, scratch } = await materialise(ctx.engine.home, args.file)
  const read = sendReader({
    // A workbook a page sent names files on the page's computer: only its uploads count.
    ...defined({
      fileAssets: args.file.kind === 'bytes' ? fileAssetsOf(args.fileAssets) : undefined,
    }),
    pool: ctx.engine.workbookWorker,
  })
  const request = { file: path, fileName, scratch, ...sendChoices(args), fromNewRun: true }
  return planSend(ctx.engine, connection, read, request, defined({ signal }))
}

/** The page's choices in the Bridge's words (a pilot's rows, skipInvalid) as a send's. */
function sendChoices(args: RequestArgs<'planSubmission'>): SendChoices {
  const { target, callbackUrl, pilotRows, skipInvalid } = args
  return {
    target: target.kind === 'template' ? { ...target, callbackUrl } : target,
    sheet: args.sheet,
    runValues: args.runValues,
    setAside: skipInvalid ? {} : undefined,
    selection: pilotRows !== undefined ? { first: pilotRows } : {},
  }
}
/**
 * Uploads files named by path or sent by a page. Contents from a browser are written to a
 * private temporary folder first, so that every file goes through the same hashing, dedupe and
 * streaming upload.
 */
async function uploadFiles(
  ctx: VerbContext<Pick<Engine, 'home' | 'uploads'>>,
  connection: Connection,
  files: RequestArgs<'uploadFiles'>['files'],
  onProgress: (progress: UploadProgressArgs) => void,
  signal?: AbortSignal,
): Promise<UploadResultView> {
  const scratch = await mkdtemp(join(ctx.engine.home, 'tmp-upload-'))
  try {
    const paths: string[] = []
    const names = new Map<string, string>()
    for (const [i, file] of files.entries()) {
      let path: string
      if (file.kind === 'path') path = file.path
      else {
        const folder = join(scratch, String(i))
        await mkdir(folder)
        path = join(folder, safeFileName(file.name))
        await writeFile(path, Buffer.from(file.base64, 'base64'))
      }
      paths.push(path)
      names.set(path, file.name)
    }
    const results = await ctx.engine.uploads.files(connection, paths, {
      ...defined({ signal }),
      onProgress: (p) =>
        onProgress({
          name: names.get(p.path) ?? p.filename,
          state: p.state,
          sentBytes: p.sentBytes,
          totalBytes: p.totalBytes,
          overall: p.overall,
        }),
    })
    return {
      environment: connection.name,
      assets: paths.map((path) => {
        const { asset, reused } = results.get(path)!
        return {
          name: names.get(path)!,
          inputAssetId: asset.inputAssetId,
          sizeBytes: asset.sizeBytes,
          reused,
        }
      }),
    }
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}
