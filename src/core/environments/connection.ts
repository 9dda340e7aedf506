/**
 * What the engine's modules share about talking to one environment: which environment to use
 * (Target), a ready connection to it (Connection) with the key its data is filed under in the
 * history, and the connection check. Nothing here imports the composition root (engine.ts).
 */
import type { ConnectionReport, ConnectionStep, TokenStorageView } from '../../shared/bridge'
import { ApiError, type ApiClient } from '../service'
import { describeUserError } from '../errors'

/** Which environment to talk to: a saved one by name, or any address (`--base-url`). */
export interface Target {
  env?: string | undefined
  baseUrl?: string | undefined
}

/** A ready connection to one environment. */
export interface Connection {
  /** The environment's name; for an ad-hoc `--base-url`, its origin. */
  name: string
  baseUrl: string
  origin: string
  /**
   * Where this environment's data is filed in the history (journal, uploads, schema cache,
   * runs seen): its origin, or a fixed key for the built-in Sandbox, whose port changes at
   * every start.
   */
  historyKey: string
  builtIn: boolean
  unitLabel: string
  client: ApiClient
}

/** The history key of the built-in Sandbox (see Connection.historyKey). */
export const BUILTIN_HISTORY_KEY = 'builtin:sandbox'

/** One step of the connection check: what it asks, and what its answer means. */
interface CheckStep {
  step: ConnectionStep['step']
  title: string
  run(
    client: ApiClient,
    origin: string,
  ): Promise<Omit<ConnectionStep, 'step' | 'title' | 'skipped'>>
}

const CHECK_TIMEOUT_MS = 10_000

/** The steps, in order (DESIGN.md, Flows 1; the interface's Authentication 7). */
const CHECK_STEPS: readonly CheckStep[] = [
  {
    step: 'healthz',
    title: 'Service reachable',
    async run(client, origin) {
      const health = await client.healthz({ timeoutMs: CHECK_TIMEOUT_MS })
      return {
        ok: health.ok,
        status: health.status,
        message: health.ok
          ? `${origin} answered.`
          : `${origin} answered HTTP ${health.status} to the health check. Check the address.`,
      }
    },
  },
  {
    step: 'version',
    title: 'Interface version',
    async run(client) {
      const version = await client.version({ timeoutMs: CHECK_TIMEOUT_MS })
      const shown = typeof version.body === 'string' ? version.body : JSON.stringify(version.body)
      return {
        ok: version.ok,
        status: version.status,
        message: version.ok
          ? `Version: ${shown.slice(0, 200)}`
          : `The version check answered HTTP ${version.status}.`,
        body: version.body,
      }
    },
  },
  {
    step: 'auth',
    title: 'Token accepted',
    async run(client) {
      await client.models({ timeoutMs: CHECK_TIMEOUT_MS })
      return { ok: true, status: 200, message: 'The service accepted the token.' }
    },
  },
]

/**
 * The connection check: /healthz, /version, then the authenticated /models, walked in one
 * loop; once a step fails, the later ones are reported as not tried.
 */
export async function checkConnection(
  connection: Connection,
  secretStore: TokenStorageView,
): Promise<ConnectionReport> {
  const steps: ConnectionStep[] = []
  let failed = false
  for (const check of CHECK_STEPS) {
    const named = { step: check.step, title: check.title }
    if (failed) {
      steps.push({
        ...named,
        ok: false,
        status: 0,
        message: 'Not tried: an earlier step failed.',
        skipped: true,
      })
      continue
    }
    try {
      const outcome = await check.run(connection.client, connection.origin)
      steps.push({ ...named, ...outcome, skipped: false })
      failed = !outcome.ok
    } catch (error) {
      failed = true
      steps.push({
        ...named,
        ok: false,
        status: error instanceof ApiError ? error.status : 0,
        message: describeUserError(error),
        skipped: false,
      })
    }
  }
  return { environment: connection.name, ok: !failed, steps, secretStore }
}
