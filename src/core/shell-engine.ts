/**
 * Adapts the engine to what the Bridge handlers need (ShellEngine in bridge-handlers.ts), and
 * turns every engine error into a BridgeError that says what happened and what to do.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { ContractError } from '../shared/contract'
import { BridgeError, type BridgeErrorCode } from '../shared/bridge'
import { ApiError } from './api'
import type { ShellEngine } from './bridge-handlers'
import { downloadRun, safeFileName } from './downloads'
import { uploadFiles } from './uploads'
import type { Engine } from './engine'
import { EngineError } from './errors'
import { SecretStoreError } from './secrets'

export interface ShellOptions {
  /**
   * Where a run's downloads go: the desktop app asks with a folder dialog (null when cancelled);
   * without it, the user's Downloads folder.
   */
  chooseDownloadFolder?: (runId: string) => Promise<string | null>
}

export function createShellEngine(
  engine: Engine,
  app: { name: string; version: string; platform: string },
  shell: ShellOptions = {},
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
        const results = await uploadFiles(engine.db, connection, paths, {
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
      const folder = shell.chooseDownloadFolder
        ? await shell.chooseDownloadFolder(runId)
        : defaultDownloadFolder()
      if (folder === null) return null
      const connection = await engine.connect({ env: name })
      const result = await downloadRun(engine.db, connection, runId, folder, {
        onProgress: ({ overall }) => onProgress(overall),
      })
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
    describeError,
  }
}

/** ~/Downloads/Skill Runner: where a browser's downloads go (the page cannot pick folders). */
export function defaultDownloadFolder(): string {
  return join(homedir(), 'Downloads', 'Skill Runner')
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
