// The ApiClient against the real sandbox over HTTP: every endpoint, every field parsed, and the
// error paths a user can meet.
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient, ApiError, readAtMost, type HttpAnswer } from '../../src/core/service'
import { paths } from '../../src/shared/contract'
import { call, requestId, startTestSandbox, waitForRun, type TestSandbox } from '../helpers/sandbox'

/** A port nothing listens on: one the system just gave and took back. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** An artifact answer's whole body. */
const bytesOf = async (answer: HttpAnswer) => (await readAtMost(answer.body, 1 << 30)).bytes

let sandbox: TestSandbox
let client: ApiClient
const OTHER = 'token-of-someone-else'

beforeAll(async () => {
  sandbox = await startTestSandbox({ tokens: ['token-ada', OTHER] })
  client = new ApiClient({ baseUrl: sandbox.url, token: () => 'token-ada', backoffMs: 5, maxBackoffMs: 20 })
})
afterAll(async () => {
  await sandbox.close()
})

/** Every key of the raw JSON is present in the parsed value (nested objects and arrays too). */
function expectAllFields(raw: unknown, parsed: unknown, where = 'answer') {
  if (Array.isArray(raw)) {
    raw.forEach((item, i) => expectAllFields(item, (parsed as unknown[])[i], `${where}[${i}]`))
    return
  }
  if (raw && typeof raw === 'object') {
    for (const [key, value] of Object.entries(raw)) {
      expect(parsed, `${where}.${key}`).toHaveProperty([key])
      expectAllFields(value, (parsed as Record<string, unknown>)[key], `${where}.${key}`)
    }
  }
}

describe('every endpoint', () => {
  it('system: healthz, version, models', async () => {
    expect((await client.healthz()).ok).toBe(true)
    const version = await client.version()
    expect(version.ok).toBe(true)
    await expect(client.models()).resolves.toBeDefined()
  })

  it('templates: schema and a private template, every field parsed', async () => {
    const schema = await client.templateSchema('row-echo')
    expectAllFields((await call(sandbox, paths.templateSchema('row-echo'), { token: 'token-ada' })).body, schema)
    const list = await client.listAllCreatorListings()
    expect(list.length).toBeGreaterThan(0)
    const raw = await call<{ items: unknown[] }>(sandbox, paths.creatorListings(), { token: 'token-ada' })
    expectAllFields(raw.body.items, list)
    const template = await client.privateTemplate('weekly-status-report')
    expect(template.versions.length).toBe(2)
    expectAllFields((await call(sandbox, paths.privateTemplate('weekly-status-report'), { token: 'token-ada' })).body, template)
    const review = await client.reviewRequest('review-recipe-scaler-1')
    expectAllFields((await call(sandbox, paths.reviewRequest('review-recipe-scaler-1'), { token: 'token-ada' })).body, review)
  })

  it('runRows, run detail with tasks and artifacts, artifact content with a range', async () => {
    const accepted = await client.runRows('row-echo', { clientRequestId: requestId(), rows: [{ message: 'hi' }, { message: 'x [[fail]]' }] })
    expect(accepted.runId).not.toBe('')
    await waitForRun(sandbox, accepted.runId, 'token-ada')
    const detail = await client.run(accepted.runId)
    expectAllFields((await call(sandbox, paths.run(accepted.runId), { token: 'token-ada' })).body, detail)
    expect(detail.tasks.map((t) => t.status).sort()).toEqual(['failed', 'succeeded'])
    const artifact = detail.artifacts.find((a) => a.accessUrl)!
    const whole = await bytesOf(await client.fetchArtifact(artifact.accessUrl))
    const part = await client.fetchArtifact(artifact.accessUrl, { headers: { Range: 'bytes=1-' } })
    expect(part.status).toBe(206)
    expect((await bytesOf(part)).byteLength).toBe(whole.byteLength - 1)
  })

  it('upload, execute and validateWorkbook', async () => {
    const asset = await client.upload({ filename: 'a.txt', contentType: 'text/plain', content: Buffer.from('hello').toString('base64') })
    expect(asset.sizeBytes).toBe(5)
    const result = await client.execute('review-keyword-miner', {
      clientRequestId: requestId(),
      confirm: true,
      inputRows: [{ reviewText: 'Lovely' }],
      listingVersionId: 'review-keyword-miner-v1',
    })
    expect(result.runTransactionId).not.toBe('')
    expect(result.taskFixedFeeT).toBe(4)
    const validation = await client.validateWorkbook('review-keyword-miner', {
      clientRequestId: requestId(),
      confirm: true,
      filename: 'r.csv',
      listingVersionId: 'review-keyword-miner-v1',
      content: new TextEncoder().encode('Review,Stars\nGood,5\nBad,many\n'),
    })
    expect(validation.valid).toBe(false)
    expect(validation.rowErrors).toEqual([{ rowIndex: 1, fieldKey: 'stars', error: "Row 3, Stars: 'many' is not a whole number" }])
  })

  it('runs list pages to the last page', async () => {
    for (let i = 0; i < 3; i += 1) await client.runRows('row-echo', { clientRequestId: requestId(), rows: [{ message: `m${i}` }] })
    const first = await client.listRuns({ pageSize: 2 })
    expect(first.items).toHaveLength(2)
    expect(first.nextPageToken).not.toBe('')
    const all = await client.listAllRuns({})
    expect(all.items.length).toBe(all.totalCount)
    expect(new Set(all.items.map((r) => r.runId)).size).toBe(all.items.length)
  })
})

describe('errors', () => {
  it('401 without a token or with a wrong one', async () => {
    const anonymous = new ApiClient({ baseUrl: sandbox.url })
    await expect(anonymous.listRuns()).rejects.toMatchObject({ kind: 'http', status: 401 })
    const wrong = new ApiClient({ baseUrl: sandbox.url, token: () => 'nope' })
    const error = await wrong.listRuns().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).isUnauthorized).toBe(true)
    expect((error as ApiError).nextStep).toMatch(/token/)
  })

  it('404 keeps the server message; 400 for a bad body; 409 for a reused id with another body', async () => {
    await expect(client.run('run_unknown')).rejects.toMatchObject({ status: 404, serverMessage: expect.stringMatching(/run_unknown/) })
    await expect(client.execute('review-keyword-miner', { clientRequestId: requestId(), confirm: false, inputRows: [], listingVersionId: 'x' })).rejects.toMatchObject({ status: 400 })
    const id = requestId()
    await client.runRows('row-echo', { clientRequestId: id, rows: [{ message: 'a' }] })
    await expect(client.runRows('row-echo', { clientRequestId: id, rows: [{ message: 'b' }] })).rejects.toMatchObject({ status: 409 })
  })

  it("another user's runs are not visible", async () => {
    const mine = await client.runRows('row-echo', { clientRequestId: requestId(), rows: [{ message: 'private' }] })
    const other = new ApiClient({ baseUrl: sandbox.url, token: () => OTHER })
    await expect(other.run(mine.runId)).rejects.toMatchObject({ status: 404 })
    expect((await other.listAllRuns()).items.map((r) => r.runId)).not.toContain(mine.runId)
  })

  it('retries a 503 for GET, resends a lost runRows answer with the same id, never retries upload', async () => {
    sandbox.injectFault({ method: 'GET', path: paths.runs(), status: 503, retryAfterSeconds: 0 })
    await expect(client.listRuns()).resolves.toBeDefined()
    const before = (await client.listRuns()).totalCount
    sandbox.injectFault({ method: 'POST', path: paths.runRows('row-echo'), drop: 'after' })
    await client.runRows('row-echo', { clientRequestId: requestId(), rows: [{ message: 'once' }] })
    expect((await client.listRuns()).totalCount).toBe(before + 1)
    sandbox.injectFault({ method: 'POST', path: paths.upload(), status: 503 })
    await expect(client.upload({ filename: 'b.txt', contentType: 'text/plain', content: 'aGk=' })).rejects.toMatchObject({ status: 503, attempts: 1 })
  })

  it('an unreachable service is one clear error', async () => {
    const away = new ApiClient({ baseUrl: 'http://127.0.0.1:1', maxAttempts: 2, backoffMs: 1 })
    await expect(away.listRuns()).rejects.toMatchObject({ kind: 'unreachable', isUnreachable: true })
    // The system's reason is said in words, from node:http's error and from fetch's alike (fetch
    // refuses port 1 itself, so both go to a port that was free a moment ago).
    const baseUrl = `http://127.0.0.1:${await closedPort()}`
    const direct = new ApiClient({ baseUrl, maxAttempts: 1 })
    const viaFetch = new ApiClient({ baseUrl, maxAttempts: 1, fetch: (input, init) => fetch(input, init) })
    for (const client of [direct, viaFetch]) {
      const error = await client.listRuns().catch((e: unknown) => e)
      expect(error).toMatchObject({ detail: 'the connection was refused' })
    }
  })
})
