// An artifact download may take as long as its bytes keep coming, but a service that stops
// sending in the middle of a file must not hold the download for ever: after the stall limit the
// transfer is cut, tried again (resuming), and reported as failed when it never moves on.
import { readdirSync } from 'node:fs'
import { expect, it } from 'vitest'
import { useHostileDownload } from '../helpers/artifact-run'

const hostile = useHostileDownload('sr-stall')

it('a body that stops coming half-way is cut after the stall limit, never finished, and said', async () => {
  let requests = 0
  await hostile.serve((_req, res) => {
    requests += 1
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': String(4 * 1024 * 1024) })
    // Half a file, then nothing, with the connection left open.
    res.write(Buffer.alloc(2 * 1024 * 1024, 120))
  })
  const started = Date.now()
  const { result, out } = await hostile.download({ attempts: 2, stallMs: 300 })
  expect(Date.now() - started).toBeLessThan(10_000)
  expect(result.saved).toBe(0)
  expect(result.failed).toHaveLength(1)
  expect(result.failed[0]!.error).toMatch(/stopped sending/)
  // Tried again before giving up, and nothing looks finished.
  expect(requests).toBe(2)
  const finished = readdirSync(out, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.endsWith('.partial'))
    .map((e) => e.name)
  expect(finished).toEqual([])
}, 20_000)
