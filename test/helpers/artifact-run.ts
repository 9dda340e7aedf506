import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { createEngine, type Engine } from '../../src/core/engine'
import { MemorySecretStore } from '../../src/core/secrets'
import type { RunDetail } from '../../src/shared/contract'
import { startHostileService, type Handler, type HostileService } from '../api/hostile-service'

/** A finished run of one row with one artifact at `accessUrl`, for download tests. */
export function runWithArtifact(accessUrl: string): RunDetail {
  const detail = {
    run: { runId: 'run-1', status: 'succeeded', totalTasks: 1, completedTasks: 1 },
    tasks: [{ taskId: 't-1', status: 'succeeded', sourceRowIndex: 0, artifactCount: 1 }],
    artifacts: [
      { artifactId: 'a-1', taskId: 't-1', portName: 'report', sourceRowIndex: 0, accessUrl },
    ],
  }
  return detail as unknown as RunDetail
}

type DownloadOptions = Parameters<Engine['downloads']['run']>[3]

/**
 * One artifact downloaded from a service that misbehaves as the test says: `serve` starts it,
 * `download` runs a fresh engine's download of that one artifact into a new folder. Both the
 * service and the engine are closed after each test.
 */
export function useHostileDownload(prefix: string) {
  let service: HostileService | undefined
  let engine: Engine | undefined
  afterEach(async () => {
    await engine?.close()
    await service?.close()
    engine = service = undefined
  })
  return {
    async serve(handler: Handler): Promise<HostileService> {
      service = await startHostileService(handler)
      return service
    },
    async download(options: DownloadOptions, fetchImpl?: typeof fetch) {
      if (!service) throw new Error('serve() comes before download()')
      engine = createEngine({
        home: mkdtempSync(join(tmpdir(), `${prefix}-home-`)),
        secretStore: new MemorySecretStore(),
        tokenOverride: 'token-ada',
        ...(fetchImpl ? { fetch: fetchImpl } : {}),
        api: { timeoutMs: 2000 },
      })
      const connection = await engine.connect({ baseUrl: service.url })
      const out = mkdtempSync(join(tmpdir(), `${prefix}-out-`))
      const detail = runWithArtifact(`${service.url}/files/a-1`)
      return { result: await engine.downloads.run(connection, detail, out, options), out }
    },
  }
}
