import { describe, expect, it } from 'vitest'
import { INTERFACE_VERSION, paths } from '../../src/shared/contract'
import { formatSandboxBanner, SANDBOX_DEMO_TOKEN } from '../../src/sandbox'
import { call, useTestSandbox } from '../helpers/sandbox'

describe('sandbox: system checks and authentication', () => {
  const sb = useTestSandbox()

  it('listens on 127.0.0.1 with a free port and makes the demo user', () => {
    expect(sb.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(sb.port).toBeGreaterThan(0)
    expect(sb.demoToken).toBe(SANDBOX_DEMO_TOKEN)
    expect(formatSandboxBanner(sb)).toBe(`listening on ${sb.url}`)
  })

  it('answers /healthz and /version without a token', async () => {
    const health = await call(sb, paths.healthz(), { token: null })
    expect(health).toMatchObject({ status: 200, body: { ok: true } })
    const version = await call(sb, paths.version(), { token: null })
    expect(version.status).toBe(200)
    expect(version.body).toMatchObject({ version: INTERFACE_VERSION, service: 'skill-runner-sandbox' })
  })

  it('lists models for a valid token', async () => {
    const models = await call<{ models: unknown[] }>(sb, paths.models())
    expect(models.status).toBe(200)
    expect(models.body.models.length).toBeGreaterThan(0)
  })

  it('answers 401 with an error body for a missing, malformed or unknown token', async () => {
    const variants: Record<string, string>[] = [
      {},
      { Authorization: 'Basic abc' },
      { Authorization: 'Bearer' },
      { Authorization: 'Bearer not-a-token' },
    ]
    for (const headers of variants) {
      const result = await call<{ error: string }>(sb, paths.runs(), { token: null, headers })
      expect(result.status).toBe(401)
      expect(result.body.error).toMatch(/token/i)
      expect(result.headers.get('www-authenticate')).toMatch(/^Bearer/)
    }
  })

  it('needs the token on every /svc/v1 endpoint', async () => {
    const all = [
      paths.models(),
      paths.runs(),
      paths.run('x'),
      paths.creatorListings(),
      paths.templateSchema('row-echo'),
      paths.privateTemplate('weekly-status-report'),
      paths.reviewRequest('review-recipe-scaler-1'),
    ]
    for (const path of all) {
      expect((await call(sb, path, { token: null })).status, path).toBe(401)
    }
    for (const path of [paths.upload(), paths.runRows('row-echo'), paths.execute('x'), paths.validateWorkbook('x')]) {
      expect((await call(sb, path, { token: null, body: {} })).status, path).toBe(401)
    }
  })

  it('answers 404 for an unknown path and 405 for a wrong method, with an error body', async () => {
    const unknown = await call<{ error: string }>(sb, '/svc/v1/nothing-here')
    expect(unknown.status).toBe(404)
    expect(unknown.body.error).toContain('/svc/v1/nothing-here')
    const wrong = await call<{ error: string }>(sb, paths.runs(), { method: 'DELETE' })
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get('allow')).toContain('GET')
    expect(wrong.body.error).toMatch(/GET/)
    const getOnPost = await call<{ error: string }>(sb, paths.upload())
    expect(getOnPost.status).toBe(405)
  })

  it('answers 400, not 500, for a badly encoded path segment', async () => {
    const result = await call<{ error: string }>(sb, '/svc/v1/users/me/runs/%E0%A4%A')
    expect(result.status).toBe(400)
    expect(result.body.error).toMatch(/encoded/)
  })
})
