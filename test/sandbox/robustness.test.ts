import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { paths, runListSchema } from '../../src/shared/contract'
import { call, requestId, useTestSandbox } from '../helpers/sandbox'

describe('sandbox: bad input never breaks it', () => {
  const sb = useTestSandbox()

  const posts = [
    paths.runRows('row-echo'),
    paths.execute('press-release-polisher'),
    paths.validateWorkbook('press-release-polisher'),
    paths.upload(),
  ]

  const deep = `${'['.repeat(5000)}"x"${']'.repeat(5000)}`

  const bodies: unknown[] = [
    'null',
    '0',
    'true',
    '{}',
    '{"__proto__": {"polluted": true}}',
    '\u0000\u0001',
    '{"a":1}{"b":2}',
    { clientRequestId: '', rows: [], inputRows: [], content: '' },
    { clientRequestId: requestId(), confirm: true, listingVersionId: 'press-release-polisher-v1', inputRows: [{ __proto__: 1 }], rows: [{ constructor: 'x' }] },
    { clientRequestId: requestId(), confirm: true, listingVersionId: 'press-release-polisher-v1', inputRows: [{ headline: 1e308, draft: -0 }], rows: [{ message: { deep: [1, 2] } }] },
    { clientRequestId: requestId(), confirm: true, listingVersionId: 'x', content: [256, -1, 1.5], filename: 'a.xlsx' },
    `{"clientRequestId":"${requestId()}","rows":[${deep}]}`,
    { content: 'A'.repeat(10), contentType: 'text/plain', filename: 'x'.repeat(300) },
  ]

  it('answers every odd body with a 4xx and an error message', async () => {
    for (const path of posts) {
      for (const body of bodies) {
        const result = await call<{ error?: string }>(sb, path, { method: 'POST', body })
        const label = `${path} ${JSON.stringify(body).slice(0, 80)}`
        expect(result.status, label).toBeGreaterThanOrEqual(400)
        expect(result.status, label).toBeLessThan(500)
        expect(typeof result.body.error, label).toBe('string')
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('answers odd query strings on the lists with 200 or 400', async () => {
    const queries = ['?pageSize=', '?pageSize=1e3', '?pageSize=%00', '?pageToken=', '?pageToken=%FF', '?orderBy=', '?status=&pageSize=5', '?search=%25_%5C']
    for (const path of [paths.runs(), paths.creatorListings()]) {
      for (const q of queries) {
        const result = await call(sb, path + q)
        expect([200, 400], `${path}${q}`).toContain(result.status)
      }
    }
  })

  it('answers garbage on the wire with 400 and keeps serving', async () => {
    const reply = await new Promise<string>((resolve) => {
      const socket = connect(sb.port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'))
      let text = ''
      socket.on('data', (d) => (text += d.toString()))
      socket.on('close', () => resolve(text))
      socket.on('error', () => resolve(text))
    })
    expect(reply).toMatch(/^HTTP\/1\.1 400/)
    expect((await call(sb, paths.healthz())).status).toBe(200)
  })
})

describe('sandbox: simulated failures for client tests', () => {
  const sb = useTestSandbox()

  it('answers an injected 429 with Retry-After once, then normally', async () => {
    sb.injectFault({ path: paths.runs(), status: 429, retryAfterSeconds: 2 })
    const limited = await call<{ error: string }>(sb, paths.runs())
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('2')
    expect(limited.body.error).toMatch(/Simulated/)
    expect((await call(sb, paths.runs())).status).toBe(200)
  })

  it('can lose an answer after doing the work; the resend with the same id gets that run', async () => {
    sb.injectFault({ method: 'POST', path: paths.runRows('row-echo'), drop: 'after' })
    const body = { clientRequestId: requestId(), rows: [{ message: 'lost answer' }] }
    await expect(call(sb, paths.runRows('row-echo'), { body })).rejects.toThrow()
    const resent = await call<{ runId: string }>(sb, paths.runRows('row-echo'), { body })
    expect(resent.status).toBe(202)
    const list = runListSchema.parse((await call(sb, paths.runs())).body)
    expect(list.totalCount).toBe(1)
    expect(list.items[0]!.runId).toBe(resent.body.runId)
  })
})
