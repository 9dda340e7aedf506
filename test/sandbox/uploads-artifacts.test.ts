import { createHash } from 'node:crypto'
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inputAssetSchema, paths, type Artifact } from '../../src/shared/contract'
import { call, requestId, startTestSandbox, useTestSandbox, waitForRun, type TestSandbox } from '../helpers/sandbox'

const fileBytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7) % 256))
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

describe('sandbox: uploads and artifacts', () => {
  let sb: TestSandbox
  let fileArtifact: Artifact
  let digestArtifact: Artifact

  beforeAll(async () => {
    sb = await startTestSandbox()
    const upload = await call(sb, paths.upload(), {
      body: { content: fileBytes.toString('base64'), contentType: 'application/pdf', filename: 'report.pdf' },
    })
    const asset = inputAssetSchema.parse(upload.body)
    const accepted = await call<{ runId: string }>(sb, paths.runRows('document-digest'), {
      body: {
        clientRequestId: requestId(),
        rows: [{ title: 'Report', document: { inputAssetId: asset.inputAssetId } }],
      },
    })
    const detail = await waitForRun(sb, accepted.body.runId)
    expect(detail.run.status).toBe('succeeded')
    fileArtifact = detail.artifacts.find((a) => a.stepId === 'passthrough')!
    digestArtifact = detail.artifacts.find((a) => a.stepId === 'digest')!
  })
  afterAll(() => sb.close())

  const get = (url: string, headers: Record<string, string> = {}, method = 'GET') =>
    fetch(url, { method, headers: { Authorization: `Bearer ${sb.token}`, ...headers } })

  it('stores an upload and answers the input asset', async () => {
    const result = await call(sb, paths.upload(), {
      body: { content: Buffer.from('hello').toString('base64'), contentType: 'text/plain', filename: '../../notes.txt' },
    })
    expect(result.status).toBe(200)
    const asset = inputAssetSchema.parse(result.body)
    expect(asset).toMatchObject({ filename: 'notes.txt', mimeType: 'text/plain', sizeBytes: 5 })
    expect(asset.inputAssetId).not.toBe('')
    expect(asset.uploadedAt).toBeGreaterThan(1_600_000_000)
  })

  it('rejects bad uploads with 400 naming the problem', async () => {
    const cases: [unknown, RegExp][] = [
      [{ content: 'not base64!!', contentType: 'text/plain', filename: 'a.txt' }, /content is not valid base64/],
      [{ content: 'abcde', contentType: 'text/plain', filename: 'a.txt' }, /content is not valid base64/],
      [{ content: 'aGVsbG8=', contentType: 'plain', filename: 'a.txt' }, /contentType "plain"/],
      [{ content: 'aGVsbG8=', contentType: 'text/plain', filename: '' }, /filename/],
      [{ content: 'aGVsbG8=', contentType: 'text/plain', filename: 'a\u0001b' }, /filename/],
      [{ content: 'aGVsbG8=', filename: 'a.txt' }, /contentType is missing/],
      [{ content: 42, contentType: 'text/plain', filename: 'a.txt' }, /content/],
    ]
    for (const [body, message] of cases) {
      const result = await call<{ error: string }>(sb, paths.upload(), { body })
      expect(result.status, JSON.stringify(body)).toBe(400)
      expect(result.body.error).toMatch(message)
    }
  })

  it('digests an uploaded file and returns the file itself at accessUrl', async () => {
    const digest = JSON.parse(digestArtifact.inlineText) as { sha256: string; sizeBytes: number; filename: string }
    expect(digest).toMatchObject({ sha256: sha256(fileBytes), sizeBytes: fileBytes.length, filename: 'report.pdf' })
    expect(fileArtifact.inlineText).toBe('')
    expect(fileArtifact.mimeType).toBe('application/pdf')
    const response = await get(fileArtifact.accessUrl)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/pdf')
    expect(response.headers.get('content-length')).toBe(String(fileBytes.length))
    expect(response.headers.get('accept-ranges')).toBe('bytes')
    expect(response.headers.get('content-disposition')).toContain('report.pdf')
    expect(Buffer.from(await response.arrayBuffer()).equals(fileBytes)).toBe(true)
  })

  it('serves byte ranges so an interrupted download can resume', async () => {
    const partial = await get(fileArtifact.accessUrl, { Range: 'bytes=1000-1999' })
    expect(partial.status).toBe(206)
    expect(partial.headers.get('content-range')).toBe(`bytes 1000-1999/${fileBytes.length}`)
    expect(partial.headers.get('content-length')).toBe('1000')
    expect(Buffer.from(await partial.arrayBuffer()).equals(fileBytes.subarray(1000, 2000))).toBe(true)

    const rest = await get(fileArtifact.accessUrl, { Range: 'bytes=4000-' })
    expect(rest.status).toBe(206)
    expect(rest.headers.get('content-range')).toBe(`bytes 4000-4999/${fileBytes.length}`)
    expect(Buffer.from(await rest.arrayBuffer()).equals(fileBytes.subarray(4000))).toBe(true)

    const tail = await get(fileArtifact.accessUrl, { Range: 'bytes=-10' })
    expect(tail.status).toBe(206)
    expect(Buffer.from(await tail.arrayBuffer()).equals(fileBytes.subarray(-10))).toBe(true)

    const beyond = await get(fileArtifact.accessUrl, { Range: 'bytes=9000-' })
    expect(beyond.status).toBe(416)
    expect(beyond.headers.get('content-range')).toBe(`bytes */${fileBytes.length}`)
    expect(((await beyond.json()) as { error: string }).error).toMatch(/range/)
  })

  it('honours If-Range: a stale validator gets the whole file', async () => {
    const head = await get(fileArtifact.accessUrl, {}, 'HEAD')
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe(String(fileBytes.length))
    const etag = head.headers.get('etag')!
    const same = await get(fileArtifact.accessUrl, { Range: 'bytes=0-9', 'If-Range': etag })
    expect(same.status).toBe(206)
    await same.arrayBuffer()
    const stale = await get(fileArtifact.accessUrl, { Range: 'bytes=0-9', 'If-Range': '"something-else"' })
    expect(stale.status).toBe(200)
    expect((await stale.arrayBuffer()).byteLength).toBe(fileBytes.length)
  })

  it('serves inline artifacts at accessUrl too, with ranges', async () => {
    const whole = await get(digestArtifact.accessUrl)
    expect(await whole.text()).toBe(digestArtifact.inlineText)
    const part = await get(digestArtifact.accessUrl, { Range: 'bytes=0-0' })
    expect(part.status).toBe(206)
    expect(await part.text()).toBe('{')
  })

  it('needs the token for artifacts', async () => {
    const anonymous = await fetch(fileArtifact.accessUrl)
    expect(anonymous.status).toBe(401)
    const unknown = await get(fileArtifact.accessUrl.replace(fileArtifact.artifactId, 'art_nope'))
    expect(unknown.status).toBe(404)
  })

  it('answers a text file value with a digest and a text/plain file', async () => {
    const accepted = await call<{ runId: string }>(sb, paths.runRows('document-digest'), {
      body: { clientRequestId: requestId(), rows: [{ title: 'Memo', document: { text: 'memo text' } }] },
    })
    const detail = await waitForRun(sb, accepted.body.runId)
    const file = detail.artifacts.find((a) => a.stepId === 'passthrough')!
    expect(file.inlineText).toBe('')
    const response = await get(file.accessUrl)
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await response.text()).toBe('memo text')
  })
})

describe('sandbox: request body limit', () => {
  const sb = useTestSandbox({ maxBodyBytes: 1024 })

  it('answers 413 with a clear message for a body above the limit', async () => {
    const result = await call<{ error: string }>(sb, paths.upload(), {
      body: { content: Buffer.alloc(4096).toString('base64'), contentType: 'text/plain', filename: 'big.txt' },
    })
    expect(result.status).toBe(413)
    expect(result.body.error).toMatch(/larger than the sandbox accepts \(1 KB\)/)
    expect((await call(sb, paths.healthz())).status).toBe(200)
  })

  it('answers 413 for a streamed body without Content-Length', async () => {
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        `${sb.url}${paths.upload()}`,
        { method: 'POST', headers: { Authorization: `Bearer ${sb.token}`, 'Content-Type': 'application/json' } },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }))
        },
      )
      req.on('error', reject)
      req.write('{"content":"')
      req.write('A'.repeat(2048))
      req.end('","contentType":"text/plain","filename":"a.txt"}')
    })
    expect(status).toBe(413)
    expect(JSON.parse(text)).toHaveProperty('error')
  })

  it('keeps serving after a client aborts mid-body', async () => {
    await new Promise<void>((resolve) => {
      const req = request(`${sb.url}${paths.upload()}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${sb.token}`, 'Content-Type': 'application/json', 'Content-Length': '900' },
      })
      req.on('error', () => resolve())
      req.write('{"content":"AAAA')
      setTimeout(() => {
        req.destroy()
        resolve()
      }, 20)
    })
    expect((await call(sb, paths.healthz())).status).toBe(200)
  })
})
