/**
 * What the engine's modules share about talking to one environment: which environment to use
 * (Target), a ready connection to it (Connection) with the key its data is filed under in the
 * history, and the connection check. Nothing here imports the composition root (engine.ts).
 */
import type { ConnectionReport, ConnectionStep, TokenStorageView } from '../../shared/bridge'
import { ApiError, type ApiClient } from '../service'
import { describeUserError } from '../errors'
import { versionWords } from '../../shared/format'

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

export { BUILTIN_HISTORY_KEY } from './environments'

/** One step of the connection check: what it asks, and what its answer means. */
interface CheckStep {
  step: ConnectionStep['step']
  title: string
  run(client: ApiClient): Promise<Omit<ConnectionStep, 'step' | 'title' | 'skipped'>>
}

const CHECK_TIMEOUT_MS = 10_000

/**
 * The steps, in order (DESIGN.md, Flows 1; the interface's Authentication 7). Each says its
 * outcome in the user's words, which the window and `doctor` show as they are: no status lines,
 * request paths or JSON (the version's body is passed along for `doctor --json`).
 */
const CHECK_STEPS: readonly CheckStep[] = [
  probeStep('healthz', 'Service reachable', {
    ok: () => 'The service answered.',
    failed: (status) =>
      `Something answered at this address, but not as the service should (error ${status}). Check the address.`,
  }),
  probeStep('version', 'Interface version', {
    ok: (body) => versionWords(body),
    failed: (status) =>
      `It did not say which version it runs (error ${status}). It may not be a Skill Execution Service.`,
    keepBody: true,
  }),
  {
    step: 'auth',
    title: 'Token accepted',
    async run(client) {
      try {
        await client.models({ timeoutMs: CHECK_TIMEOUT_MS })
      } catch (error) {
        // A refused token is an answer of this step, not a failure to check.
        const refused = error instanceof ApiError ? TOKEN_REFUSALS[error.status] : undefined
        if (error instanceof ApiError && error.noToken) {
          return { ok: false, status: error.status, message: NO_TOKEN, noToken: true }
        }
        if (error instanceof ApiError && refused) {
          return { ok: false, status: error.status, message: refused }
        }
        throw error
      }
      return { ok: true, status: 200, message: 'The service accepted the token.' }
    },
  },
]

/**
 * A step that asks one of the plain GETs, /healthz or /version, which answer any HTTP status
 * rather than throw it: its words say what a good answer holds or what a bad status means.
 * `keepBody` passes the answer along (the version's body, for `doctor --json`).
 */
function probeStep(
  step: 'healthz' | 'version',
  title: string,
  words: { ok: (body: unknown) => string; failed: (status: number) => string; keepBody?: boolean },
): CheckStep {
  return {
    step,
    title,
    async run(client) {
      const answer = await client[step]({ timeoutMs: CHECK_TIMEOUT_MS })
      return {
        ok: answer.ok,
        status: answer.status,
        message: answer.ok ? words.ok(answer.body) : words.failed(answer.status),
        ...(words.keepBody ? { body: answer.body } : {}),
      }
    },
  }
}

const NO_TOKEN = 'The service asks for a token, and this environment has none yet. Set one.'

/** What a refused token means at the check, by status. */
const TOKEN_REFUSALS: Partial<Record<number, string>> = {
  401: 'The service did not accept the token. Set a valid token for this environment.',
  403: 'The token works, but this account may not use the service.',
}

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
        message: 'Not tried: an earlier check did not pass.',
        skipped: true,
      })
      continue
    }
    try {
      const outcome = await check.run(connection.client)
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
