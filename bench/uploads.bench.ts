/**
 * Upload throughput and memory: 200 files of 1 MB, then one file of 200 MB, through the engine's
 * uploader (hash, stream, base64 as it goes) to a sandbox in another process. The peak RSS of
 * this process is printed beside the file size: streaming keeps it far below the file size.
 */
import { randomBytes } from 'node:crypto'
import { createWriteStream, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { mb, peakRssMb, startBenchEngine } from './support'

const bench = await startBenchEngine('sr-bench-uploads-')
const { dir, engine, connection } = bench
try {
  const small = Array.from({ length: 200 }, (_, i) => {
    const path = join(dir, `file-${i}.bin`)
    writeFileSync(path, randomBytes(1024 * 1024))
    return path
  })
  const rssBefore = peakRssMb()
  let started = performance.now()
  await engine.uploads.files(connection, small, { concurrency: 4 })
  let seconds = (performance.now() - started) / 1000
  console.log(
    `200 x 1 MB: ${seconds.toFixed(2)} s, ${(200 / seconds).toFixed(1)} MB/s, peak RSS ${peakRssMb().toFixed(0)} MB (before: ${rssBefore.toFixed(0)} MB)`,
  )

  const bigPath = join(dir, 'big.bin')
  const out = createWriteStream(bigPath)
  const chunk = randomBytes(4 * 1024 * 1024)
  for (let i = 0; i < 50; i += 1)
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()))
  await new Promise<void>((r) => out.end(() => r()))
  const size = 200 * 1024 * 1024
  const rssBeforeBig = peakRssMb()
  started = performance.now()
  await engine.uploads.files(connection, [bigPath])
  seconds = (performance.now() - started) / 1000
  const peak = peakRssMb()
  console.log(
    `1 x 200 MB: ${seconds.toFixed(2)} s, ${(200 / seconds).toFixed(1)} MB/s, peak RSS ${peak.toFixed(0)} MB for a ${mb(size)} file (${((peak * 1024 * 1024) / size).toFixed(2)}x the file size)`,
  )
  const growth = peak - rssBeforeBig
  console.log(
    `the 200 MB upload grew peak RSS by ${growth.toFixed(0)} MB (${((growth * 1024 * 1024) / size).toFixed(2)}x the file size)`,
  )
  console.log(
    `target: peak RSS well below the file size -> ${peak < 200 && growth < 50 ? 'met' : 'NOT met'}`,
  )
} finally {
  await bench.close()
}
