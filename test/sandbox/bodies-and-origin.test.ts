// The sandbox holds a bounded total of request bodies across requests, and writes artifact
// URLs with its own address whatever Host header a caller sends.
import { request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { inputAssetSchema, paths, type RunDetail } from '../../src/shared/contract'
import { call, requestId, useTestSandbox, waitForRun, type TestSandbox } from '../helpers/sandbox'
import { until } from '../helpers/wait'

/** A POST whose body is sent in two parts, the second only when `release` is called. */
function slowUpload(sb: TestSandbox, firstBytes: number) {
  let release: () => void = () => {}
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      `${sb.url}${paths.upload()}`,
      {
        method: 'POST',
        headers: { Authorization: `Bearer ${sb.token}`, 'Content-Type': 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
        )
      },
    )
    req.on('error', reject)
    req.write(`{"content":"${'A'.repeat(firstBytes)}`)
    release = () => req.end('","contentType":"text/plain","filename":"a.txt"}')
  })
  return { answer, release: () => release() }
}

const uploadB = (sb: TestSandbox) =>
  call<{ error: string }>(sb, paths.upload(), {
    body: { content: 'B'.repeat(20 * 1024), contentType: 'text/plain', filename: 'b.txt' },
  })

describe('sandbox: request bodies in total', () => {
  const sb = useTestSandbox({ maxBodyBytes: 64 * 1024, maxBodiesBytes: 48 * 1024 })

  it('answers 503 with Retry-After when bodies held by other requests would pass the total, and recovers', async () => {
    const first = slowUpload(sb, 40 * 1024)
    // Asked until the first's bytes are held: they arrive a moment after they are written.
    let second!: Awaited<ReturnType<typeof uploadB>>
    await until(async () => (second = await uploadB(sb)).status !== 200)
    expect(second.status).toBe(503)
    expect(second.headers.get('retry-after')).toBe('2')
    expect(second.body.error).toMatch(/busy receiving other large requests/)
    first.release()
    expect((await first.answer).status).toBe(200)
    // Once the first is answered its bytes are free again.
    const third = await call(sb, paths.upload(), {
      body: { content: 'C'.repeat(20 * 1024), contentType: 'text/plain', filename: 'c.txt' },
    })
    expect(third.status).toBe(200)
  })

  it('lets one request alone use more than the total (up to the per-request limit)', async () => {
    const alone = await call(sb, paths.upload(), {
      body: { content: 'D'.repeat(60 * 1024), contentType: 'text/plain', filename: 'd.txt' },
    })
    expect(alone.status).toBe(200)
  })
})

describe('sandbox: artifact URLs', () => {
  const sb = useTestSandbox()

  it('builds accessUrl from its own address, never from the Host header', async () => {
    const upload = await call(sb, paths.upload(), {
      body: {
        content: Buffer.from('hello').toString('base64'),
        contentType: 'application/pdf',
        filename: 'r.pdf',
      },
    })
    const asset = inputAssetSchema.parse(upload.body)
    const accepted = await call<{ runId: string }>(sb, paths.runRows('document-digest'), {
      body: {
        clientRequestId: requestId(),
        rows: [{ title: 'R', document: { inputAssetId: asset.inputAssetId } }],
      },
    })
    await waitForRun(sb, accepted.body.runId)
    const detail = await new Promise<RunDetail>((resolve, reject) => {
      const req = request(
        `${sb.url}${paths.run(accepted.body.runId)}`,
        { headers: { Authorization: `Bearer ${sb.token}`, Host: 'evil.example:80' } },
        (res) => {
          let text = ''
          res.on('data', (c: Buffer) => (text += c.toString()))
          res.on('end', () => resolve(JSON.parse(text) as RunDetail))
        },
      )
      req.on('error', reject)
      req.end()
    })
    const urls = detail.artifacts.map((a) => a.accessUrl).filter(Boolean)
    expect(urls.length).toBeGreaterThan(0)
    for (const url of urls) expect(url!.startsWith(`${sb.url}/`)).toBe(true)
  })
})

describe('sandbox: validateWorkbook with hostile workbooks', () => {
  const sb = useTestSandbox({ tokens: ['tok-creator', 'tok-buyer'] })

  it('answers each with a file error and stays up', async () => {
    const { makeXlsx } = await import('../workbooks/support/zip')
    const header = '<row r="1"><c r="A1" t="inlineStr"><is><t>Headline</t></is></c></row>'
    const files: [string, Buffer, RegExp][] = [
      [
        'ref.xlsx',
        makeXlsx({ sheet: `${header}<row r="2"><c r="ZZZZZZZZZZ2"><v>1</v></c></row>` }),
        /beyond column XFD/,
      ],
      [
        'bomb.xlsx',
        makeXlsx({ sheet: `${header}<row r="2">${' '.repeat(80 * 1024 * 1024)}` }),
        /never ends/,
      ],
      ['latin.csv', Buffer.from('Headline,Draft text\ncaf\u00e9,cr\u00e8me\n', 'latin1'), /^$/],
    ]
    for (const [filename, bytes, message] of files) {
      const result = await call<{ valid: boolean; fileErrors: string[] }>(
        sb,
        paths.validateWorkbook('press-release-polisher'),
        {
          body: {
            clientRequestId: requestId(),
            confirm: true,
            listingVersionId: 'press-release-polisher-v1',
            filename,
            content: [...bytes],
          },
        },
      )
      expect(result.status, filename).toBe(200)
      expect(result.body.fileErrors.join(' '), filename).toMatch(message)
    }
    expect((await call(sb, paths.healthz())).status).toBe(200)
  }, 120_000)
})
