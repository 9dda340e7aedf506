// An artifact download may take as long as its bytes keep coming, but a service that stops
// sending in the middle of a file must not hold the download for ever: after the stall limit the
// transfer is cut, tried again (resuming), and reported as failed when it never moves on.
import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { createEngine, type Engine } from '../../src/core/engine'
import { MemorySecretStore } from '../../src/core/secrets'
import { startHostileService, type HostileService } from '../api/hostile-service'
import { runWithArtifact } from '../helpers/artifact-run'

let service: HostileService | undefined
let engine: Engine | undefined
afterEach(async () => {
  await engine?.close()
  await service?.close()
  engine = service = undefined
})

it('a body that stops coming half-way is cut after the stall limit, never finished, and said', async () => {
  let requests = 0
  service = await startHostileService((_req, res) => {
    requests += 1
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': String(4 * 1024 * 1024) })
    // Half a file, then nothing, with the connection left open.
    res.write(Buffer.alloc(2 * 1024 * 1024, 120))
  })
  engine = createEngine({
    home: mkdtempSync(join(tmpdir(), 'sr-stall-home-')),
    secretStore: new MemorySecretStore(),
    tokenOverride: 'token-ada',
    api: { timeoutMs: 2000 },
  })
  const connection = await engine.connect({ baseUrl: service.url })
  const out = mkdtempSync(join(tmpdir(), 'sr-stall-out-'))
  const started = Date.now()
  const result = await engine.downloads.run(
    connection,
    runWithArtifact(`${service.url}/files/a-1`),
    out,
    {
      attempts: 2,
      stallMs: 300,
    },
  )
  expect(Date.now() - started).toBeLessThan(10_000)
  expect(result.files).toEqual([])
  expect(result.failed).toHaveLength(1)
  expect(result.failed[0]!.error).toMatch(/stopped sending/)
  // Tried again before giving up, and nothing looks finished.
  expect(requests).toBe(2)
  const finished = readdirSync(out, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.endsWith('.partial'))
    .map((e) => e.name)
  expect(finished).toEqual([])
}, 20_000)
