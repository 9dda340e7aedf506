/**
 * The Bridge's behaviour, written once: every verb of the contract (src/shared/bridge) calls the
 * engine's flows directly, grouped by screen in verbs/. Electron IPC (src/main/ipc.ts) and browser
 * mode (src/web) both serve exactly these handlers, so the desktop app and the browser behave the
 * same. Every error a verb throws leaves as the window's kind of error (errors.ts), and what
 * changes on its own (runs, submissions) is pushed as events.
 */
import type { BridgeEventName, BridgeHandlers, EnvironmentList } from '../../shared/bridge'
import type { Engine } from '../engine'
import { defaultOutputsFolder } from '../storage/settings'
import { describeError } from './errors'
import { RunWatch } from './run-watch'
import { SavedFiles } from './saved-files'
import type { BridgeServiceOptions, Emit } from './types'
import { historyVerbs, outputVerbs, savesOnRunEnd } from './verbs/after-run'
import { settingsVerbs } from './verbs/settings'
import type { VerbContext } from './verbs/context'
import { compareVerbs } from './verbs/compare'
import { draftVerbs } from './verbs/drafts'
import { redoVerbs } from './verbs/redo'
import { paceVerbs } from './verbs/pace'
import { usageVerbs } from './verbs/usage'
import { creatorVerbs } from './verbs/creator'
import { environmentVerbs } from './verbs/environments'
import { checkVerbs, targetVerbs } from './verbs/prepare'
import { runsSource, runVerbs, runWindowVerbs } from './verbs/runs'
import { setAsideVerbs } from './verbs/set-aside'
import { batchVerbs } from './verbs/batches'
import { spendVerbs } from './verbs/spend'
import { WorkbookChecks } from './workbook-checks'

export type { BridgeServiceOptions, Emit, ShellDialogs, AppIdentity } from './types'

export interface BridgeService {
  handlers: BridgeHandlers
  /** Listens to every pushed event; returns a function that stops listening. */
  subscribe(listener: (event: BridgeEventName, payload: unknown) => void): () => void
  emit: Emit
  dispose(): void
}

/** Every handler, with whatever it throws turned into the error the window shows. */
function guarded(handlers: BridgeHandlers): BridgeHandlers {
  const out: Record<string, unknown> = {}
  for (const [verb, handler] of Object.entries(handlers)) {
    out[verb] = async (...args: unknown[]) => {
      try {
        return await (handler as (...a: unknown[]) => Promise<unknown>)(...args)
      } catch (error) {
        throw describeError(error)
      }
    }
  }
  return out as BridgeHandlers
}

type Listener = (event: BridgeEventName, payload: unknown) => void

/** The windows listening for pushed events, and the one way to push to all of them. */
function broadcaster(): { listeners: Set<Listener>; emit: Emit } {
  const listeners = new Set<Listener>()
  const emit: Emit = (event, payload) => {
    for (const listener of [...listeners]) {
      try {
        listener(event, payload)
      } catch {
        // One broken listener must not stop the others.
      }
    }
  }
  return { listeners, emit }
}

export function createBridgeService(engine: Engine, options: BridgeServiceOptions): BridgeService {
  const { listeners, emit } = broadcaster()
  const dialogs = options.dialogs ?? {}
  const source = runsSource(engine)
  const sessionDefault = { name: options.opensOn ?? null }
  const environments = async (): Promise<EnvironmentList> => {
    const items = await engine.listEnvironments()
    const name = sessionDefault.name
    if (name === null || !items.some((e) => e.name === name)) return { items }
    return { items: items.map((e) => ({ ...e, isDefault: e.name === name })) }
  }
  const ctx: VerbContext<Engine> = {
    engine,
    options,
    dialogs,
    emit,
    runWatch: new RunWatch(source, emit, options),
    settings: engine.settings(dialogs.defaultOutputsFolder ?? defaultOutputsFolder),
    checks: new WorkbookChecks(engine),
    sessionDefault,
    environments,
    async changed() {
      const list = await environments()
      emit('environmentsChanged', list)
      return list
    },
  }
  const autoSave = savesOnRunEnd(ctx)
  listeners.add(autoSave.listener)
  const files = new SavedFiles(engine.home, dialogs)
  const handlers = guarded({
    ...environmentVerbs(ctx),
    ...targetVerbs(ctx, files),
    ...checkVerbs(ctx, files),
    ...spendVerbs(ctx),
    ...batchVerbs(ctx),
    ...setAsideVerbs(ctx, files),
    ...runVerbs(ctx, source),
    ...runWindowVerbs(ctx),
    ...outputVerbs(ctx),
    ...historyVerbs(ctx),
    ...settingsVerbs(ctx),
    ...creatorVerbs(ctx),
    ...compareVerbs(ctx),
    ...redoVerbs(ctx),
    ...paceVerbs(ctx),
    ...usageVerbs(ctx, files),
    ...draftVerbs(ctx),
  })
  const stopSubmissionUpdates = engine.submissions.onChange((change) =>
    emit('submissionUpdated', {
      environment: change.environment,
      clientRequestId: change.clientRequestId,
      state: change.state,
      runId: change.runId,
      error: change.error,
    }),
  )
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
      ctx.runWatch.dispose()
      autoSave.dispose()
      void ctx.checks.dispose()
      stopSubmissionUpdates()
      listeners.clear()
    },
  }
}
