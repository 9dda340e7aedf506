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
import { RunWatcher } from './watcher'
import { isAbsolute } from 'node:path'
import { isTerminalStatus, type RunDetail, type RunList } from '../shared/contract'
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
  type RunsUpdate,
  type SecretStoreView,
} from '../shared/bridge'

/** What the Bridge needs of the engine. `shell-engine.ts` adapts the real engine to it. */
export interface ShellEngine {
  appInfo(): { name: string; version: string; platform: string }
  secretStore(): SecretStoreView
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
  /** Changes when a submission is accepted here or by another process on this computer. */
  acceptedSubmissionsMark?(): string
  /** Turns any error of the engine into one the user can act on. */
  describeError(error: unknown): BridgeError
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
    watchRuns: (args) => guard(() => follower.watch(args.environment)),
    unwatchRuns: async (args) => {
      follower.unwatch(args.environment)
      return null
    },
    refreshRuns: (args) => guard(() => follower.refresh(args.environment)),
    describeFile: (args, context) => guard(() => describeFile(args.file, context.transport)),
    uploadFiles: (args, context) =>
      guard(async () => {
        if (!engine.uploadFiles) {
          throw new BridgeError({
            code: 'internal',
            message: 'Uploads are not available here.',
            nextStep: 'Use the command line: skill-runner upload FILE.',
          })
        }
        // Over HTTP a page could name any file on this computer: only contents are accepted.
        if (context.transport !== 'ipc' && args.files.some((f) => f.kind === 'path')) {
          throw new BridgeError({
            code: 'forbidden',
            message:
              'In a browser, files are sent by their content, not by a path on this computer.',
            nextStep: 'Drop the files onto the page again.',
          })
        }
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
      listeners.clear()
    },
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
      { minMs, maxMs, pageSize: FOLLOW_PAGE_SIZE, setTimer, clearTimer },
    )
    const f: Followed = { watcher, totalCount: 0, stop: () => {} }
    const offs = [
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
