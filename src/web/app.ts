/**
 * Browser mode: the engine's Bridge (the same handlers the desktop app uses) served to a
 * browser by server.ts. Used by `skill-runner web`, `npm run web`, `npm start` without
 * Electron, and the end-to-end tests.
 */
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  createBridgeService,
  type AppIdentity,
  type BridgeService,
  type ShellDialogs,
} from '../core/bridge/service'
import type { RunWatchOptions } from '../core/bridge/types'
import type { Engine } from '../core/engine'
import { keepHeapNearLive } from '../core/heap'
import { createDispatch } from '../shared/bridge'
import { startWebServer, type WebServer } from './server'
import { defined } from '../shared/defined'

export interface BrowserModeOptions {
  engine: Engine
  app: AppIdentity
  /** What the shell offers (a browser: nothing; tests give an outputs folder). */
  dialogs?: ShellDialogs
  /** The environment the page opens on, shown as the default until the user picks another. */
  opensOn?: string | null
  host?: string
  port?: number
  rendererDir?: string
  secret?: string
  onRefused?: (reason: string) => void
  onUnexpectedError?: (verb: string, error: unknown) => void
  /** How the runs are watched where it differs from the app's paces (tests of an outage). */
  watch?: RunWatchOptions
}

export interface BrowserMode {
  url: string
  server: WebServer
  service: BridgeService
  close(): Promise<void>
}

export async function startBrowserMode(options: BrowserModeOptions): Promise<BrowserMode> {
  keepHeapNearLive()
  const rendererDir = options.rendererDir ?? findRendererDir()
  const service = createBridgeService(options.engine, {
    ...options.watch,
    shell: 'browser',
    app: options.app,
    ...defined({ dialogs: options.dialogs }),
    opensOn: options.opensOn ?? null,
  })
  const dispatch = createDispatch(
    service.handlers,
    defined({ onUnexpectedError: options.onUnexpectedError }),
  )
  const server = await startWebServer({
    rendererDir,
    dispatch,
    subscribe: service.subscribe,
    ...defined({
      host: options.host,
      port: options.port,
      secret: options.secret,
      onRefused: options.onRefused,
    }),
  })
  return {
    url: server.url,
    server,
    service,
    async close() {
      service.dispose()
      await server.close()
    },
  }
}

/** out/renderer of the checkout or package this module runs from (source or bundle). */
export function findRendererDir(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'out')))
      return join(dir, 'out', 'renderer')
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'src', 'renderer'))) {
      return join(dir, 'out', 'renderer')
    }
    const parent = dirname(dir)
    if (parent === dir) return join(from, 'renderer')
    dir = parent
  }
}
