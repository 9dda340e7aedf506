/**
 * Adapts the engine to what the Bridge handlers need (ShellEngine in bridge-handlers.ts), and
 * turns every engine error into a BridgeError that says what happened and what to do.
 */
import { ContractError } from '../shared/contract'
import { BridgeError, type BridgeErrorCode } from '../shared/bridge'
import { ApiError } from './api'
import type { ShellEngine } from './bridge-handlers'
import type { Engine } from './engine'
import { EngineError } from './errors'
import { SecretStoreError } from './secrets'

export function createShellEngine(
  engine: Engine,
  app: { name: string; version: string; platform: string },
): ShellEngine {
  return {
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
      engine.recordRuns(connection.key, page.items)
      return page
    },
    async getRun(name, runId) {
      const connection = await engine.connect({ env: name })
      return connection.client.run(runId)
    },
    acceptedSubmissionsMark: () => engine.submissions.acceptedMark(),
    describeError,
  }
}

const ENGINE_CODES: Record<EngineError['code'], BridgeErrorCode> = {
  'invalid-arguments': 'invalid-arguments',
  'not-found': 'not-found',
  conflict: 'conflict',
  refused: 'conflict',
  unavailable: 'unreachable',
  internal: 'internal',
}

export function describeError(error: unknown): BridgeError {
  if (error instanceof BridgeError) return error
  if (error instanceof ApiError) {
    let code: BridgeErrorCode = 'service'
    if (error.isUnreachable) code = 'unreachable'
    else if (error.status === 401) code = 'unauthorized'
    else if (error.status === 404) code = 'not-found'
    else if (error.status === 409) code = 'conflict'
    return new BridgeError({ code, message: error.message, nextStep: error.nextStep })
  }
  if (error instanceof EngineError) {
    return new BridgeError({
      code: ENGINE_CODES[error.code],
      message: error.message,
      nextStep: error.nextStep,
      ...(error.fields ? { fields: error.fields } : {}),
    })
  }
  if (error instanceof SecretStoreError) {
    return new BridgeError({ code: 'internal', message: error.message, nextStep: error.nextStep })
  }
  if (error instanceof ContractError) {
    return new BridgeError({
      code: 'service',
      message: error.message,
      nextStep: 'Update Skill Runner, or report it to the service’s operator.',
    })
  }
  return new BridgeError({
    code: 'internal',
    message: `Something went wrong inside Skill Runner: ${error instanceof Error ? error.message : String(error)}`,
    nextStep:
      'Try again. If it happens again, restart Skill Runner and report what you were doing.',
  })
}
