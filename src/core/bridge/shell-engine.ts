/**
 * Adapts the engine to what the Bridge handlers need (ShellEngine in bridge-handlers.ts), and
 * turns every engine error into a BridgeError that says what happened and what to do.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import {
  type FileRef,
  type PendingSubmissionView,
  type PlanTarget,
} from '../../shared/bridge'
import type { ShellEngine } from './service'
import { createAfterRun, type AfterRunShell } from './after-run-verbs'
import { safeFileName } from '../flows/downloads/downloads'
import {
  bytesOfTemporary,
  inputWorkbookName,
  knownTemplates,
  targetSchema,
  templateView,
  WorkbookChecks,
  writeInputWorkbook,
} from '../flows/prepare/prepare'
import type { PrepareShell } from './service'
import type { SavedFileView } from '../../shared/bridge'
import type { Engine } from '../engine'
import { EngineError } from '../errors'
import { describeError } from './errors'
import { buyerListing, listingView } from '../flows/listings/buyer-listing'
import { confirmPlan, planRetryFailed, planSubmission, planView, plansOf } from '../flows/spend/plans'
import type { Submission } from '../flows/spend/submissions'
import { parseInputWorkbook } from '../workbooks'

/** What the New run screen needs of the shell (the desktop app's dialogs; nothing in a browser). */
export interface PrepareShellOptions {
  /**
   * Where to save a file the app makes (an input workbook, a marked-up copy): the desktop app
   * asks with a save dialog (null when cancelled). Without it the file's bytes go to the page,
   * which downloads them.
   */
  chooseSavePath?: (suggestedName: string, title: string) => Promise<string | null>
  /** Opens a saved file with the system's app for it (the desktop app's shell.openPath). */
  openPath?: (path: string) => Promise<void>
}

export type ShellOptions = AfterRunShell & PrepareShellOptions

export function createShellEngine(
  engine: Engine,
  app: { name: string; version: string; platform: string },
  shell: ShellOptions = {},
): ShellEngine {
  const after = createAfterRun(engine, shell)
  /** Environments whose unanswered submissions are being sent again now. */
  const resending = new Set<string>()
  return {
    prepare: createPrepareShell(engine, shell),
    appInfo: () => app,
    secretStore: () => engine.secretStoreView(),
    listEnvironments: () => engine.listEnvironments(),
    async addEnvironment(input) {
      await engine.addEnvironment(input)
    },
    async removeEnvironment(name) {
      await engine.removeEnvironment(name)
    },
    async useEnvironment(name) {
      engine.useEnvironment(name)
    },
    setToken: (name, token) => engine.setToken(name, token),
    checkConnection: (name) => engine.checkConnection({ env: name }),
    async listRuns(name, query) {
      const connection = await engine.connect({ env: name })
      const page = await connection.client.listRuns(query)
      engine.recordRuns(connection.historyKey, page.items)
      // The runs list searches by input file: name the files of runs submitted from here.
      return { ...page, items: after.withLocalFileNames(connection.historyKey, page.items) }
    },
    async getRun(name, runId) {
      const connection = await engine.connect({ env: name })
      const detail = await connection.client.run(runId)
      // The history follows its runs to their end state and cost.
      engine.recordRuns(connection.historyKey, [detail.run])
      return detail
    },
    acceptedSubmissionsMark: () => engine.submissions.acceptedMark(),
    async getListing(name, listingId) {
      const connection = await engine.connect({ env: name })
      const listing = await buyerListing(connection.client, listingId)
      if (listing.source === 'none') {
        throw new EngineError(
          'not-found',
          `“${listingId}” is not a published listing this service shows to buyers.`,
          'Check the listing ID. If you know its version ID, you can still check a workbook for it: the service validates it.',
        )
      }
      return listingView(connection.name, connection.unitLabel, listing)
    },
    async planSubmission(name, args) {
      const connection = await engine.connect({ env: name })
      const { path, fileName, scratch } = await materialise(engine.home, args.file)
      try {
        const plan = await planSubmission(
          engine,
          connection,
          (file, schema) =>
            parseInputWorkbook(
              { path: file },
              schema,
              // A workbook a page sent names files on the page's computer: only its uploads count.
              args.file.kind === 'bytes'
                ? { fileAssets: fileAssetsOf(args.fileAssets) }
                : { checkFiles: true },
            ),
          {
            file: path,
            fileName,
            scratch,
            target:
              args.target.kind === 'template'
                ? { kind: 'template', templateId: args.target.templateId }
                : args.target,
            selection: args.pilotRows !== undefined ? { first: args.pilotRows } : {},
            runValues: args.runValues,
          },
        )
        // A plan that cannot be confirmed keeps nothing on disk.
        if (!plan.id && scratch) await rm(scratch, { recursive: true, force: true })
        return planView(plan)
      } catch (error) {
        if (scratch) await rm(scratch, { recursive: true, force: true })
        throw error
      }
    },
    async confirmSubmission(name, args) {
      const plan = plansOf(engine).get(args.planId)
      if (plan.connection.name !== name) {
        throw new EngineError(
          'bad-input',
          `This confirmation belongs to “${plan.connection.name}”, not “${name}”.`,
          'Check the workbook again in the environment you want to use.',
        )
      }
      const done = await confirmPlan(engine, plan, {
        confirmed: args.confirmed,
        maxCostT: args.maxCostT,
        again: args.again,
      })
      const answer = done.submission.answer as {
        status?: string
        transactionStatus?: string
      } | null
      return {
        environment: name,
        clientRequestId: done.submission.clientRequestId,
        runId: done.submission.runId,
        status: answer?.status ?? answer?.transactionStatus ?? done.submission.state,
        againOf: done.againOf?.runId ?? null,
      }
    },
    async planRetryFailed(name, runId) {
      const connection = await engine.connect({ env: name })
      return planView(await planRetryFailed(engine, connection, runId))
    },
    async listPendingSubmissions(name) {
      const connection = await engine.connect({ env: name })
      const items = engine.submissions.unanswered(connection.historyKey)
      // What was sent and never answered (a crash, a lost answer) is sent again with the same
      // request id, in the background: the service makes at most one run of it, and
      // submissionUpdated tells the page how it went.
      if (items.length > 0 && !resending.has(connection.historyKey)) {
        resending.add(connection.historyKey)
        void engine.submissions
          .resendUnanswered(connection)
          .catch(() => [])
          .finally(() => resending.delete(connection.historyKey))
      }
      return { environment: name, items: items.map(pendingView) }
    },
    onSubmissionChange(listener) {
      return engine.submissions.onChange((change) =>
        listener({
          environment: change.environment,
          clientRequestId: change.clientRequestId,
          state: change.state,
          runId: change.runId,
          error: change.error,
        }),
      )
    },
    async uploadFiles(name, files, onProgress) {
      const connection = await engine.connect({ env: name })
      // Contents from a browser are written to a private temporary folder first, so that every
      // file goes through the same hashing, dedupe and streaming upload.
      const scratch = await mkdtemp(join(engine.home, 'tmp-upload-'))
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
        const results = await engine.uploads.files(connection, paths, {
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
          environment: name,
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
    },
    async downloadRun(name, runId, onProgress) {
      // Into the outputs folder of the settings, the same in the desktop app and in a browser.
      const result = await after.saveOutputs(name, runId, onProgress)
      return {
        environment: name,
        runId,
        folder: result.folder,
        savedFiles: result.files.length,
        skippedFiles: result.files.filter((f) => f.skipped).length,
        failed: result.failed.map((f) => ({
          artifactId: f.artifactId,
          message: f.error,
          nextStep: f.nextStep,
        })),
      }
    },
    after,
    describeError,
  }
}

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/** The "New run" screen's verbs on the engine's preparation flows (core/prepare.ts). */
function createPrepareShell(engine: Engine, shell: ShellOptions): PrepareShell {
  const checks = new WorkbookChecks(engine)
  /** Files saved through the save dialog in this session: the only ones "Open" may open. */
  const saved = new Set<string>()

  async function deliver(
    name: string,
    title: string,
    write: (path: string) => Promise<void>,
  ): Promise<SavedFileView | null> {
    if (shell.chooseSavePath) {
      const path = await shell.chooseSavePath(name, title)
      if (path === null) return null
      await write(path)
      saved.add(path)
      return { kind: 'path', fileName: basename(path), path, canOpen: Boolean(shell.openPath) }
    }
    const bytes = await bytesOfTemporary(engine, name, write)
    return { kind: 'bytes', fileName: name, mimeType: XLSX_MIME, base64: bytes.toString('base64') }
  }

  return {
    async listTemplates(name) {
      const connection = await engine.connect({ env: name })
      return { environment: name, ...(await knownTemplates(engine, connection)) }
    },
    async getTemplate(name, templateId) {
      const connection = await engine.connect({ env: name })
      return templateView(engine, connection, templateId)
    },
    async saveInputWorkbook(name, target) {
      const connection = await engine.connect({ env: name })
      const found = await targetSchema(engine, connection, target)
      return deliver(
        inputWorkbookName(found.name),
        `Save the input workbook of ${found.name}`,
        (p) => writeInputWorkbook(found, p),
      )
    },
    async checkWorkbook(name, request, onProgress) {
      const connection = await engine.connect({ env: name })
      const source =
        request.file.kind === 'path'
          ? { kind: 'path' as const, path: request.file.path, name: request.file.name }
          : {
              kind: 'bytes' as const,
              name: request.file.name,
              bytes: Buffer.from(request.file.base64, 'base64'),
            }
      return checks.check(connection, {
        checkId: request.checkId,
        source,
        target: request.target,
        runValues: request.runValues,
        onProgress,
      })
    },
    cancelCheck: (checkId) => void checks.cancel(checkId),
    getCheckedRows: (checkId, offset, limit) => checks.rows(checkId, offset, limit),
    saveMarkedUpCopy: (checkId) =>
      deliver(checks.markedUpName(checkId), 'Save a marked-up copy of the workbook', (p) =>
        checks.annotate(checkId, p),
      ),
    async openSavedFile(path) {
      if (!shell.openPath || !saved.has(path)) {
        throw new EngineError(
          'not-allowed',
          'Skill Runner opens only the files it saved for you in this session.',
          'Open the file from its folder.',
        )
      }
      await shell.openPath(path)
    },
  }
}

/**
 * A dropped file as a path the engine can read: the desktop's own path, or a browser's bytes
 * written to a private temporary folder first (removed when the plan is gone).
 */
/** The uploads a page made for a workbook's file cells, by cell text (the first of a repeat wins). */
function fileAssetsOf(
  assets: readonly { path: string; inputAssetId: string }[] | undefined,
): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>
  for (const a of assets ?? []) if (!(a.path in out)) out[a.path] = a.inputAssetId
  return out
}

async function materialise(
  home: string,
  file: FileRef,
): Promise<{ path: string; fileName: string; scratch?: string }> {
  if (file.kind === 'path') return { path: file.path, fileName: file.name }
  const scratch = await mkdtemp(join(home, 'tmp-plan-'))
  const path = join(scratch, safeFileName(file.name))
  await writeFile(path, Buffer.from(file.base64, 'base64'))
  return { path, fileName: file.name, scratch }
}

function pendingView(s: Submission): PendingSubmissionView {
  const target: PlanTarget =
    s.targetKind === 'listing'
      ? {
          kind: 'listing',
          listingId: s.targetId,
          listingVersionId: s.listingVersionId,
          name: s.targetId,
        }
      : { kind: 'template', templateId: s.targetId, name: s.targetId }
  return {
    environment: s.environment,
    clientRequestId: s.clientRequestId,
    state: s.state === 'pending' ? 'pending' : 'sent',
    target,
    fileName: s.inputFilename,
    rowCount: s.rowCount,
    createdAtMs: s.createdAtMs,
    updatedAtMs: s.updatedAtMs,
    error: s.error,
  }
}
