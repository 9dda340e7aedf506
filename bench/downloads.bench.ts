/**
 * Download of 1,000 artifacts (one run of 1,000 rows of row-echo, each row's output served at
 * its accessUrl) by the engine's downloader, against a plain sequential fetch loop that writes
 * each file as it comes, measured in the same run against a sandbox in a child process that adds
 * 30 ms to every request (a service across a network: on bare loopback both loops are bound by
 * local work and the comparison measures nothing).
 *
 * Target (issue 11): the engine saves the outputs at least 3x faster than the sequential loop.
 */
import { mkdirSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { DEFAULT_DOWNLOAD_CONCURRENCY } from '../src/core/storage/settings'
import { isTerminalStatus } from '../src/shared/contract'
import { peakRssMb, startBenchEngine } from './support'

const ROWS = 1000
const LATENCY_MS = 30
const TARGET = 3
const CONCURRENCY = DEFAULT_DOWNLOAD_CONCURRENCY
const slowService = ['--task-ms', '0', '--latency-ms', String(LATENCY_MS)]
const bench = await startBenchEngine('sr-bench-downloads-', slowService)
const { dir, sandbox, engine, connection } = bench
try {
  const rows = Array.from({ length: ROWS }, (_, i) => ({
    message: `row ${i}`,
    details: `details of row ${i} `.repeat(40),
    sequence: i,
  }))
  const entry = await engine.submissions.journal(connection, {
    target: { kind: 'template', templateId: 'row-echo' },
    rows,
  })
  const { runId } = await engine.submissions.send(connection, entry)
  let detail = await connection.client.run(runId)
  while (!isTerminalStatus(detail.run.status)) {
    await new Promise((r) => setTimeout(r, 200))
    detail = await connection.client.run(runId)
  }
  const remote = detail.artifacts.filter((a) => a.accessUrl && !a.inlineText)
  console.log(`${detail.artifacts.length} artifacts (${remote.length} fetched from accessUrl)`)

  // Baseline: one after another, each written whole.
  const plain = join(dir, 'plain')
  mkdirSync(plain)
  let started = performance.now()
  let bytes = 0
  for (const artifact of detail.artifacts) {
    let body: Buffer
    if (artifact.inlineText) body = Buffer.from(artifact.inlineText)
    else {
      const response = await fetch(artifact.accessUrl, {
        headers: { Authorization: `Bearer ${sandbox.token}` },
      })
      body = Buffer.from(await response.arrayBuffer())
    }
    bytes += body.length
    await writeFile(join(plain, artifact.artifactId), body)
  }
  const plainSeconds = (performance.now() - started) / 1000

  started = performance.now()
  const result = await engine.downloads.run(connection, detail, join(dir, 'engine'), {
    concurrency: CONCURRENCY,
  })
  const engineSeconds = (performance.now() - started) / 1000
  if (result.failed.length) throw new Error(`failed: ${JSON.stringify(result.failed[0])}`)

  started = performance.now()
  const again = await engine.downloads.run(connection, detail, join(dir, 'engine'), {
    concurrency: CONCURRENCY,
  })
  const skipSeconds = (performance.now() - started) / 1000

  const rate = (n: number, s: number) => `${(n / s).toFixed(0)} files/s`
  console.log(
    `plain sequential fetch loop: ${plainSeconds.toFixed(2)} s, ${rate(detail.artifacts.length, plainSeconds)}, ${(bytes / 1024 / 1024).toFixed(1)} MB`,
  )
  console.log(`every request answered ${LATENCY_MS} ms late (sandbox --latency-ms)`)
  console.log(
    `engine downloader (${CONCURRENCY} at a time, the default setting; .partial + rename, ledger): ${engineSeconds.toFixed(2)} s, ${rate(result.saved, engineSeconds)}`,
  )
  console.log(
    `second run, every file skipped: ${skipSeconds.toFixed(2)} s (${again.reused} skipped)`,
  )
  const speedup = plainSeconds / engineSeconds
  console.log(
    `${speedup >= TARGET ? 'MET ' : 'MISS'} engine vs sequential fetch loop at ${LATENCY_MS} ms per request: ${speedup.toFixed(2)}x faster (target: at least ${TARGET}x, issue 11); peak RSS ${peakRssMb().toFixed(0)} MB`,
  )
} finally {
  await bench.close()
}
