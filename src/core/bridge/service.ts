/**
 * The Bridge's behaviour, written once: every verb of the contract (src/shared/bridge) as a
 * function of the engine. Electron IPC (src/main/ipc.ts) and browser mode (src/web) both serve
 * exactly these handlers, so the desktop app and the browser behave the same.
 *
 * Also here: following the runs an environment's runs list shows (core's RunWatcher), and
 * pushing what changed as events (runsUpdated, runEnded, activity). Nothing is polled by the UI;
 * the engine asks the service again only while some run is still active, less often while
 * nothing changes, and not at all when every run is finished (a Refresh asks at once).
 */
import { stat } from 'node:fs/promises'
import { RunWatcher } from '../flows/watch/run-watcher'
import type { AfterRun } from './after-run-verbs'
import { isAbsolute } from 'node:path'
import { isTerminalStatus, type RunDetail, type RunList } from '../../shared/contract'
import {
  BridgeError,
  type ActivityUpdate,
  type AppInfo,
  type BridgeEventName,
  type BridgeEvents,
  type BridgeHandlers,
  type ConnectionReport,
  type DownloadResultView,
  type UploadProgressUpdate,
  type UploadResultView,
  type EnvironmentList,
  type EnvironmentView,
  type FileRef,
  type ListingView,
  type PendingSubmissionList,
  type RequestArgs,
  type RunsUpdate,
  type TokenStorageView,
  type CheckedRowsView,
  type PrepareTarget,
  type SavedFileView,
  type TemplateListView,
  type TemplateView,
  type WorkbookCheckView,
  type SubmissionPlanView,
  type SubmissionUpdate,
  type SubmissionView,
} from '../../shared/bridge'

/** What the Bridge needs of the engine. `shell-engine.ts` adapts the real engine to it. */
export interface ShellEngine {
  appInfo(): { name: string; version: string; platform: string }
  secretStore(): TokenStorageView
  listEnvironments(): Promise<EnvironmentView[]>
  addEnvironment(input: {
    name: string
    baseUrl: string
    token?: string | undefined
  }): Promise<void>
  removeEnvironment(name: string): Promise<void>
  useEnvironment(name: string): Promise<void>
  setToken(name: string, token: string): Promise<void>
  checkConnection(name: string): Promise<ConnectionReport>
  listRuns(
    name: string,
    query: {
      status?: string | undefined
      pageSize?: number | undefined
      pageToken?: string | undefined
    },
  ): Promise<RunList>
  getRun(name: string, runId: string): Promise<RunDetail>
  /** Uploads files (paths already checked to be allowed for the transport). */
  uploadFiles?(
    name: string,
    files: FileRef[],
    onProgress: (progress: Omit<UploadProgressUpdate, 'environment'>) => void,
  ): Promise<UploadResultView>
  /**
   * Saves a run's artifacts into a folder the shell chooses (null when the user cancelled the
   * choice), reporting progress as it goes.
   */
  downloadRun?(
    name: string,
    runId: string,
    onProgress: (progress: {
      doneFiles: number
      totalFiles: number
      receivedBytes: number
    }) => void,
  ): Promise<DownloadResultView | null>
  /** Preparing a run: templates, input workbooks, checks (the "New run" screen). */
  prepare?: PrepareShell
  /** Run detail, previews, results, history, creator views and settings (after-run.ts). */
  after?: AfterRun
  /** Changes when a submission is accepted here or by another process on this computer. */
  acceptedSubmissionsMark?(): string
  /** The buyer's view of a listing (schema, fee, terms), whoever created it. */
  getListing?(name: string, listingId: string): Promise<ListingView>
  /** Reads, validates and prices a workbook (file paths already checked for the transport). */
  planSubmission?(
    name: string,
    args: Omit<RequestArgs<'planSubmission'>, 'environment'>,
  ): Promise<SubmissionPlanView>
  /** Sends a plan; the only verb that spends. */
  confirmSubmission?(
    name: string,
    args: Omit<RequestArgs<'confirmSubmission'>, 'environment'>,
  ): Promise<SubmissionView>
  planRetryFailed?(name: string, runId: string): Promise<SubmissionPlanView>
  listPendingSubmissions?(name: string): Promise<PendingSubmissionList>
  /** Listens to journaled submissions changing state; returns a function that stops it. */
  onSubmissionChange?(listener: (update: SubmissionUpdate) => void): () => void
  /** Turns any error of the engine into one the user can act on. */
  describeError(error: unknown): BridgeError
}

/** What the "New run" screen's verbs need of the engine (shell-engine.ts implements it). */
export interface PrepareShell {
  listTemplates(name: string): Promise<TemplateListView>
  getTemplate(name: string, templateId: string): Promise<TemplateView>
  /** Null when the user cancelled the save dialog. */
  saveInputWorkbook(name: string, target: PrepareTarget): Promise<SavedFileView | null>
  checkWorkbook(
    name: string,
    request: {
      checkId: string
      file: FileRef
      target?: PrepareTarget | undefined
      runValues?: Record<string, string> | undefined
    },
    onProgress: (rowsRead: number) => void,
  ): Promise<WorkbookCheckView>
  cancelCheck(checkId: string): void
  getCheckedRows(checkId: string, offset: number, limit: number): CheckedRowsView
  saveMarkedUpCopy(checkId: string): Promise<SavedFileView | null>
  /** Opens a file this app saved in this session (desktop only). */
  openSavedFile(path: string): Promise<void>
}

export type Emit = <E extends BridgeEventName>(event: E, payload: BridgeEvents[E]) => void

export interface BridgeService {
  handlers: BridgeHandlers
  /** Listens to every pushed event; returns a function that stops listening. */
  subscribe(listener: (event: BridgeEventName, payload: unknown) => void): () => void
  emit: Emit
  dispose(): void
}

export interface BridgeServiceOptions {
  shell: 'electron' | 'browser'
  /** Run-list follow intervals (ms): the first, and the longest after quiet periods. */
  followMinMs?: number
  followMaxMs?: number
  /** How often the local history is checked for new submissions while runs are watched (ms). */
  submissionsCheckMs?: number
  /** How many newest runs one follow request covers (default 50). */
  followPageSize?: number
  setTimer?: (fn: () => void, ms: number) => unknown
  clearTimer?: (handle: unknown) => void
}

const FOLLOW_PAGE_SIZE = 50

export function createBridgeService(
  engine: ShellEngine,
  options: BridgeServiceOptions,
): BridgeService {
  const listeners = new Set<(event: BridgeEventName, payload: unknown) => void>()
  const emit: Emit = (event, payload) => {
    for (const listener of [...listeners]) {
      try {
        listener(event, payload)
      } catch {
        // One broken listener must not stop the others.
      }
    }
  }

  const guard = async <T>(task: () => Promise<T>): Promise<T> => {
    try {
      return await task()
    } catch (error) {
      throw error instanceof BridgeError ? error : engine.describeError(error)
    }
  }

  const environmentList = async (): Promise<EnvironmentList> => ({
    items: await engine.listEnvironments(),
  })
  const changed = async (): Promise<EnvironmentList> => {
    const list = await environmentList()
    emit('environmentsChanged', list)
    return list
  }

  const follower = createRunFollower(engine, emit, options)
  const stopSubmissionUpdates = engine.onSubmissionChange?.((update) =>
    emit('submissionUpdated', update),
  )

  /** A verb the engine behind this shell does not offer. */
  const missing = (what: string): never => {
    throw new BridgeError({
      code: 'internal',
      message: `${what} is not available here.`,
      nextStep: 'Use the command line (skill-runner --help lists its commands).',
    })
  }
  const prepare = (): PrepareShell => engine.prepare ?? missing('Preparing runs')

  const after = (): AfterRun => {
    if (!engine.after)
      throw new BridgeError({
        code: 'internal',
        message: 'This part of the app is not available here.',
        nextStep: 'Use the command line (skill-runner --help lists what it can do).',
      })
    return engine.after
  }
  /** Progress of a save as downloadProgress events, at most five a second (and the last one). */
  const saveProgress = (environment: string, runId: string) => {
    let last = 0
    return (progress: { doneFiles: number; totalFiles: number; receivedBytes: number }) => {
      const now = Date.now()
      if (now - last < 200 && progress.doneFiles < progress.totalFiles) return
      last = now
      emit('downloadProgress', { environment, runId, ...progress })
    }
  }

  const handlers: BridgeHandlers = {
    async getAppInfo(): Promise<AppInfo> {
      const info = engine.appInfo()
      return { ...info, shell: options.shell, secretStore: engine.secretStore() }
    },
    listEnvironments: () => guard(environmentList),
    addEnvironment: (args) =>
      guard(async () => {
        await engine.addEnvironment({ name: args.name, baseUrl: args.baseUrl, token: args.token })
        return changed()
      }),
    removeEnvironment: (args) =>
      guard(async () => {
        follower.unwatch(args.name)
        await engine.removeEnvironment(args.name)
        return changed()
      }),
    useEnvironment: (args) =>
      guard(async () => {
        await engine.useEnvironment(args.name)
        return changed()
      }),
    setToken: (args) =>
      guard(async () => {
        await engine.setToken(args.name, args.token)
        return changed()
      }),
    checkConnection: (args) => guard(() => engine.checkConnection(args.environment)),
    listRuns: (args) =>
      guard(async () => {
        const page = await engine.listRuns(args.environment, {
          status: args.status,
          pageSize: args.pageSize,
          pageToken: args.pageToken,
        })
        return { environment: args.environment, ...page }
      }),
    getRun: (args) => guard(() => engine.getRun(args.environment, args.runId)),
    getListing: (args) =>
      guard(async () =>
        engine.getListing
          ? engine.getListing(args.environment, args.listingId)
          : missing('Reading a listing'),
      ),
    planSubmission: (args, context) =>
      guard(async () => {
        if (!engine.planSubmission) return missing('Checking a workbook for a run')
        refusePathsOverHttp([args.file], context.transport)
        const { environment, ...rest } = args
        return engine.planSubmission(environment, rest)
      }),
    confirmSubmission: (args) =>
      guard(async () => {
        if (!engine.confirmSubmission) return missing('Sending a run')
        const { environment, ...rest } = args
        return engine.confirmSubmission(environment, rest)
      }),
    planRetryFailed: (args) =>
      guard(async () =>
        engine.planRetryFailed
          ? engine.planRetryFailed(args.environment, args.runId)
          : missing('Retrying failed rows'),
      ),
    listPendingSubmissions: (args) =>
      guard(async () =>
        engine.listPendingSubmissions
          ? engine.listPendingSubmissions(args.environment)
          : { environment: args.environment, items: [] },
      ),
    watchRuns: (args) => guard(() => follower.watch(args.environment)),
    unwatchRuns: async (args) => {
      follower.unwatch(args.environment)
      return null
    },
    refreshRuns: (args) => guard(() => follower.refresh(args.environment)),
    describeFile: (args, context) => guard(() => describeFile(args.file, context.transport)),
    listTemplates: (args) => guard(() => prepare().listTemplates(args.environment)),
    getTemplate: (args) => guard(() => prepare().getTemplate(args.environment, args.templateId)),
    saveInputWorkbook: (args) =>
      guard(() => prepare().saveInputWorkbook(args.environment, args.target)),
    checkWorkbook: (args, context) =>
      guard(async () => {
        // Over HTTP a page could name any file on this computer: only contents are accepted.
        refusePathsOverHttp([args.file], context.transport)
        let last = 0
        return prepare().checkWorkbook(
          args.environment,
          {
            checkId: args.checkId,
            file: args.file,
            target: args.target,
            runValues: args.runValues,
          },
          (rowsRead) => {
            const now = Date.now()
            if (now - last < 150) return
            last = now
            emit('checkProgress', { checkId: args.checkId, rowsRead })
          },
        )
      }),
    cancelCheck: async (args) => {
      engine.prepare?.cancelCheck(args.checkId)
      return null
    },
    getCheckedRows: (args) =>
      guard(async () => prepare().getCheckedRows(args.checkId, args.offset, args.limit)),
    saveMarkedUpCopy: (args) => guard(() => prepare().saveMarkedUpCopy(args.checkId)),
    openSavedFile: (args, context) =>
      guard(async () => {
        if (context.transport !== 'ipc') {
          throw new BridgeError({
            code: 'forbidden',
            message: 'A browser cannot open files on this computer for you.',
            nextStep: 'Open the downloaded file from your browser’s downloads.',
          })
        }
        await prepare().openSavedFile(args.path)
        return null
      }),
    uploadFiles: (args, context) =>
      guard(async () => {
        if (!engine.uploadFiles) {
          throw new BridgeError({
            code: 'internal',
            message: 'Uploads are not available here.',
            nextStep: 'Use the command line: skill-runner upload FILE.',
          })
        }
        refusePathsOverHttp(args.files, context.transport)
        let last = 0
        return engine.uploadFiles(args.environment, args.files, (progress) => {
          const now = Date.now()
          const final = progress.state !== 'hashing' && progress.state !== 'uploading'
          if (!final && now - last < 200) return
          last = now
          emit('uploadProgress', { environment: args.environment, ...progress })
        })
      }),
    downloadRun: (args) =>
      guard(async () => {
        if (!engine.downloadRun) {
          throw new BridgeError({
            code: 'internal',
            message: 'Downloads are not available here.',
            nextStep: 'Use the command line: skill-runner runs download RUN -o FOLDER.',
          })
        }
        let last = 0
        return engine.downloadRun(args.environment, args.runId, (progress) => {
          const now = Date.now()
          if (now - last < 200 && progress.doneFiles < progress.totalFiles) return
          last = now
          emit('downloadProgress', {
            environment: args.environment,
            runId: args.runId,
            ...progress,
          })
        })
      }),
    getRunOverview: (args) => guard(() => after().runOverview(args.environment, args.runId)),
    previewArtifact: (args) =>
      guard(() => after().previewArtifact(args.environment, args.runId, args.artifactId)),
    saveResultsWorkbook: (args) =>
      guard(() =>
        after().saveResultsWorkbook(
          args.environment,
          args.runId,
          saveProgress(args.environment, args.runId),
        ),
      ),
    showInFolder: (args) =>
      guard(() => after().showInFolder(args.environment, args.runId, args.item, args.artifactId)),
    listHistory: (args) =>
      guard(async () => after().history({ search: args.search, limit: args.limit })),
    listMyListings: (args) =>
      guard(() =>
        after().myListings(args.environment, {
          search: args.search,
          pageSize: args.pageSize,
          pageToken: args.pageToken,
        }),
      ),
    getReviewRequest: (args) => guard(() => after().reviewRequest(args.environment, args.id)),
    getPrivateTemplate: (args) =>
      guard(() => after().privateTemplate(args.environment, args.templateId)),
    getSettings: () => guard(async () => after().settings()),
    updateSettings: (args) =>
      guard(async () =>
        after().updateSettings({
          ...(args.outputsFolder !== undefined ? { outputsFolder: args.outputsFolder } : {}),
          ...(args.notifications !== undefined ? { notifications: args.notifications } : {}),
          ...(args.downloadConcurrency !== undefined
            ? { downloadConcurrency: args.downloadConcurrency }
            : {}),
          ...(args.theme !== undefined ? { theme: args.theme } : {}),
        }),
      ),
    setUnitLabel: (args) =>
      guard(async () => {
        after().setUnitLabel(args.environment, args.unitLabel)
        return changed()
      }),
    chooseOutputsFolder: () => guard(() => after().chooseOutputsFolder()),
    followRun: async (args) => {
      follower.followRun(args.environment, args.runId)
      return null
    },
    unfollowRun: async (args) => {
      follower.unfollowRun(args.environment, args.runId)
      return null
    },
  }

  return {
    handlers,
    emit,
    subscribe(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    dispose() {
      follower.dispose()
      stopSubmissionUpdates?.()
      listeners.clear()
    },
  }
}

/** Over HTTP a page could name any file on this computer: only contents are accepted. */
function refusePathsOverHttp(files: FileRef[], transport: 'ipc' | 'http') {
  if (transport !== 'ipc' && files.some((f) => f.kind === 'path')) {
    throw new BridgeError({
      code: 'forbidden',
      message: 'In a browser, files are sent by their content, not by a path on this computer.',
      nextStep: 'Drop the files onto the page again.',
    })
  }
}

async function describeFile(file: FileRef, transport: 'ipc' | 'http') {
  if (file.kind === 'bytes') {
    return {
      name: file.name,
      sizeBytes: Buffer.byteLength(file.base64, 'base64'),
      source: 'bytes' as const,
    }
  }
  // A page in a browser cannot know real paths; refuse rather than read what it names.
  if (transport !== 'ipc') {
    throw new BridgeError({
      code: 'forbidden',
      message: 'In a browser, files are sent by their content, not by a path on this computer.',
      nextStep: 'Drop the file onto the page again.',
    })
  }
  if (!isAbsolute(file.path)) {
    throw new BridgeError({
      code: 'invalid-arguments',
      message: `“${file.name}” has no usable location on this computer.`,
      nextStep: 'Save the file to a folder first, then drop it again.',
    })
  }
  try {
    const info = await stat(file.path)
    if (!info.isFile()) throw new Error('not a file')
    return { name: file.name, sizeBytes: info.size, source: 'path' as const }
  } catch {
    throw new BridgeError({
      code: 'not-found',
      message: `Skill Runner cannot read “${file.name}”.`,
      nextStep: 'Check that the file still exists and that you may open it, then drop it again.',
    })
  }
}

/**
 * Follows the newest runs of each environment someone looks at, with one RunWatcher (core's
 * watcher) per environment: one list request per look while a run there is active, soon after
 * a change, then less and less often, never when everything is finished. What changed is pushed
 * as runsUpdated, runs that end as runEnded, and the overall progress as activity.
 */
function createRunFollower(engine: ShellEngine, emit: Emit, options: BridgeServiceOptions) {
  const minMs = options.followMinMs ?? 1000
  const maxMs = options.followMaxMs ?? 10_000
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms))
  const clearTimer =
    options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>))

  interface Followed {
    watcher: RunWatcher
    totalCount: number
    stop: () => void
    /** Someone looks at the runs list (watchRuns). */
    listed: boolean
    /** Runs whose detail is open (followRun), with how many viewers each. */
    open: Map<string, number>
  }
  const followed = new Map<string, Followed>()
  let lastActivity = ''

  function pushActivity() {
    let activeRuns = 0
    let doneTasks = 0
    let totalTasks = 0
    for (const f of followed.values()) {
      for (const run of f.watcher.activeRuns) {
        activeRuns++
        totalTasks += run.totalTasks
        doneTasks += run.completedTasks + run.failedTasks + run.cancelledTasks
      }
    }
    const update: ActivityUpdate = { activeRuns, doneTasks, totalTasks }
    const key = JSON.stringify(update)
    if (key === lastActivity) return
    lastActivity = key
    emit('activity', update)
  }

  function start(environment: string): Followed {
    const watcher = new RunWatcher(
      {
        listRuns: (query) => engine.listRuns(environment, query ?? {}),
        run: (runId) => engine.getRun(environment, runId),
      },
      {
        minMs,
        maxMs,
        pageSize: options.followPageSize ?? FOLLOW_PAGE_SIZE,
        setTimer,
        clearTimer,
      },
    )
    const f: Followed = { watcher, totalCount: 0, stop: () => {}, listed: false, open: new Map() }
    const offs = [
      watcher.on('detail', (detail) => emit('runDetailUpdated', { environment, detail })),
      watcher.on('changed', (runs) => {
        emit('runsUpdated', {
          environment,
          items: runs,
          totalCount: f.totalCount,
          activeCount: watcher.activeRunIds.length,
        })
        pushActivity()
      }),
      watcher.on('ended', (run) => {
        void engine
          .listEnvironments()
          .then((list) => list.find((e) => e.name === environment)?.unitLabel)
          .catch(() => undefined)
          .then((unitLabel) =>
            emit('runEnded', { environment, unitLabel: unitLabel ?? 'credits', run }),
          )
      }),
    ]
    f.stop = () => {
      watcher.stop()
      for (const off of offs) off()
    }
    return f
  }

  /** Looks at the newest page now; its active runs are followed from then on. */
  async function look(environment: string, f: Followed): Promise<RunsUpdate> {
    const page = await f.watcher.followActive()
    f.totalCount = page.totalCount
    pushActivity()
    return {
      environment,
      items: page.items,
      totalCount: page.totalCount,
      activeCount: page.items.filter((run) => !isTerminalStatus(run.status)).length,
    }
  }

  // A run submitted from this computer (this window, or the command line next to it) shows up
  // at once: the local history is checked now and then (no request to any service), and each
  // watched environment is looked at again when a new submission was accepted.
  const checkMs = options.submissionsCheckMs ?? 1500
  let mark = engine.acceptedSubmissionsMark?.() ?? ''
  let checkTimer: unknown = null
  function scheduleCheck() {
    if (checkTimer !== null || !engine.acceptedSubmissionsMark || followed.size === 0) return
    checkTimer = setTimer(() => {
      checkTimer = null
      try {
        const now = engine.acceptedSubmissionsMark!()
        if (now !== mark) {
          mark = now
          for (const [environment, f] of followed) {
            void look(environment, f)
              .then((update) => emit('runsUpdated', update))
              .catch(() => {})
          }
        }
      } catch {
        // The history could not be read this time; try again at the next check.
      }
      scheduleCheck()
    }, checkMs)
  }
  function stopCheck() {
    if (checkTimer !== null && followed.size === 0) {
      clearTimer(checkTimer)
      checkTimer = null
    }
  }

  return {
    async watch(environment: string): Promise<RunsUpdate> {
      let f = followed.get(environment)
      if (!f) {
        f = start(environment)
        followed.set(environment, f)
      }
      f.listed = true
      scheduleCheck()
      return look(environment, f)
    },
    async refresh(environment: string): Promise<RunsUpdate> {
      const f = followed.get(environment)
      if (!f) return this.watch(environment)
      return look(environment, f)
    },
    unwatch(environment: string) {
      const f = followed.get(environment)
      if (!f) return
      f.listed = false
      // An open run detail keeps following its run.
      if (f.open.size > 0) return
      f.stop()
      followed.delete(environment)
      stopCheck()
      pushActivity()
    },
    /** An open run detail: that run is followed wherever it sits in the list, until it ends. */
    followRun(environment: string, runId: string) {
      let f = followed.get(environment)
      if (!f) {
        f = start(environment)
        followed.set(environment, f)
      }
      f.open.set(runId, (f.open.get(runId) ?? 0) + 1)
      f.watcher.focus(runId)
    },
    unfollowRun(environment: string, runId: string) {
      const f = followed.get(environment)
      const viewers = f?.open.get(runId)
      if (!f || !viewers) return
      if (viewers > 1) {
        f.open.set(runId, viewers - 1)
        return
      }
      f.open.delete(runId)
      f.watcher.unfocus(runId)
      if (f.listed || f.open.size > 0) return
      f.stop()
      followed.delete(environment)
      stopCheck()
      pushActivity()
    },
    dispose() {
      for (const f of followed.values()) f.stop()
      followed.clear()
      stopCheck()
    },
  }
}
