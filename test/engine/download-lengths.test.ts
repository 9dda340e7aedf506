// Artifact downloads stream to disk with no size limit, but a body that is shorter or longer than
// its Content-Length is an error: never a finished file, and never read on past what it announced.
import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { useHostileDownload } from '../helpers/artifact-run'

const hostile = useHostileDownload('sr-lengths')

/** Every file the download left in `folder`, finished or not, at any depth. */
function filesIn(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
}

const download = (fetchImpl?: typeof fetch) => hostile.download({ attempts: 1 }, fetchImpl)

describe('an artifact whose body does not match its Content-Length', () => {
  it('shorter: the connection ends early, and no finished file is left', async () => {
    await hostile.serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '1000' })
      res.write('x'.repeat(500))
      setTimeout(() => res.destroy(), 50)
    })
    const { result, out } = await download()
    expect(result.saved).toBe(0)
    expect(result.failed).toHaveLength(1)
    expect(filesIn(out).filter((name) => !name.endsWith('.partial'))).toEqual([])
  })

  it('longer (a fetch that does not hold the server to it): stopped at once, no file', async () => {
    await hostile.serve((_req, res) => res.end())
    const started = Date.now()
    // 20 MB that announced 10 bytes: the download must stop at the first piece past 10.
    let piecesRead = 0
    const lying: typeof fetch = async (input, init) => {
      if (!String(input).includes('/files/')) return fetch(input, init)
      const chunk = new Uint8Array(64 * 1024).fill(120)
      const body = new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            piecesRead += 1
            if (piecesRead > 320) controller.close()
            else controller.enqueue(chunk)
          },
        },
        { highWaterMark: 0 },
      )
      return new Response(body, { status: 200, headers: { 'Content-Length': '10' } })
    }
    const { result, out } = await download(lying)
    expect(piecesRead).toBeLessThan(5)
    expect(result.saved).toBe(0)
    expect(result.failed).toHaveLength(1)
    expect(result.failed[0]!.error).toMatch(/sent more of a-1 than the 10 bytes it announced/)
    expect(filesIn(out).filter((name) => !name.endsWith('.partial'))).toEqual([])
    expect(Date.now() - started).toBeLessThan(5000)
  }, 15_000)
})
