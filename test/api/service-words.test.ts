// A service's words are not trusted: a service that echoes the bearer token (or one shaped like
// it) in its error text never gets it shown, neither in the ApiError nor by the command line,
// with or without --json. Control characters stay stripped.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient, ApiError } from '../../src/core/service'
import { redactorFor } from '../../src/core/service/redaction'
import { runCliCaptured } from '../helpers/cli'
import { startHostileService, type HostileService } from './hostile-service'

const TOKEN = 'sr_live_9fK2mQ7xWz4LpA8vR3tY6uB1'
/** Another key of the same kind, not the one stored: still a secret to keep out of sight. */
const LOOKALIKE = 'sr_live_Zb5nH0cJ2kD7gS4eV9wX1qP3'

let service: HostileService
beforeAll(async () => {
  service = await startHostileService((req, res) => {
    const said = req.headers.authorization ?? 'no header'
    const status = req.url?.includes('/runs/') ? 500 : 401
    res.writeHead(status, { 'Content-Type': 'application/json' })
    res.end(
      JSON.stringify({
        error: `you sent “${said}” (token ${TOKEN}); try ${LOOKALIKE} or token=${encodeURIComponent(TOKEN)} \u001b[31mred\u001b[0m\u0007`,
      }),
    )
  })
})
afterAll(() => service.close())

function expectNoSecret(text: string) {
  expect(text).not.toContain(TOKEN)
  expect(text).not.toContain(LOOKALIKE)
  expect(text).not.toContain('9fK2mQ7xWz4LpA8vR3tY6uB1')
  expect(text).not.toContain('Zb5nH0cJ2kD7gS4eV9wX1qP3')
}

describe('the ApiError', () => {
  it('keeps the words of a refusal but not the token, nor one shaped like it', async () => {
    const client = new ApiClient({ baseUrl: service.url, token: () => TOKEN, maxAttempts: 1 })
    const error = (await client.listRuns().catch((e: unknown) => e)) as ApiError
    expect(error).toBeInstanceOf(ApiError)
    expect(error.status).toBe(401)
    expect(error.serverMessage).toContain('you sent')
    expect(error.serverMessage).toContain('[hidden]')
    expectNoSecret(error.serverMessage)
    expectNoSecret(error.message)
    expectNoSecret(error.nextStep)
    expectNoSecret(JSON.stringify(error))
  })

  it('a 401 says the token was refused, or that none was given, without the service’s header talk', async () => {
    const withToken = new ApiClient({ baseUrl: service.url, token: () => TOKEN, maxAttempts: 1 })
    const refused = (await withToken.listRuns().catch((e: unknown) => e)) as ApiError
    expect(refused.message).toContain('did not accept the API token')
    expect(refused.noToken).toBe(false)
    const without = new ApiClient({ baseUrl: service.url, maxAttempts: 1 })
    const none = (await without.listRuns().catch((e: unknown) => e)) as ApiError
    expect(none.status).toBe(401)
    expect(none.noToken).toBe(true)
    expect(none.message).toContain('asks for an API token, and this environment has none yet')
    expect(none.message).not.toContain('did not accept')
    // The service's words stay for a log, never on screen.
    for (const error of [refused, none]) {
      expect(error.message).not.toMatch(/Authorization|Bearer|you sent/)
      expect(error.serverMessage).toContain('you sent')
    }
  })

  it('hides a bearer value even when no token is stored', async () => {
    const client = new ApiClient({ baseUrl: service.url, maxAttempts: 1 })
    const error = (await client.run('run-1').catch((e: unknown) => e)) as ApiError
    expect(error.status).toBe(500)
    expect(error.message).toContain('you sent “no header”')
    const echo = new ApiError({
      kind: 'http',
      status: 400,
      request: 'GET /x',
      origin: 'https://s.example',
      serverMessage: 'bad header Authorization: Bearer abc.def-ghi',
    })
    expect(echo.message).not.toContain('abc.def-ghi')
    expect(echo.message).toContain('Bearer [hidden]')
  })

  it('hides it in the detail of an answer the schema refused, which may quote its values', () => {
    const error = new ApiError({
      kind: 'contract',
      request: 'GET /x',
      origin: 'https://s.example',
      detail: `run.status: Invalid enum value, received '${LOOKALIKE}'`,
      redact: redactorFor(TOKEN),
    })
    expect(error.message).toContain('run.status: Invalid enum value')
    expectNoSecret(error.message)
    expectNoSecret(error.detail)
  })
})

describe('the command line', () => {
  const home = mkdtempSync(join(tmpdir(), 'sr-words-'))
  const cli = (args: string[]) =>
    runCliCaptured([...args, '--base-url', service.url], {
      SKILL_RUNNER_HOME: home,
      SKILL_RUNNER_TOKEN: TOKEN,
    })

  it('prints the refusal without the token, in plain text and with --json', async () => {
    for (const args of [
      ['runs', 'list'],
      ['--json', 'runs', 'list'],
      ['runs', 'show', 'r-1'],
    ]) {
      const result = await cli(args)
      expect(result.code, args.join(' ')).toBe(3)
      // A 401's words are the app's own; other refusals quote the service.
      expect(result.stderr).toContain(args.includes('show') ? 'you sent' : 'did not accept')
      expectNoSecret(result.stdout + result.stderr)
      // Control characters of the service's text stay out of the terminal.
      const controls = [...result.stderr].filter((c) => c < ' ' && c !== '\n')
      expect(controls).toEqual([])
    }
  })

  it('doctor --json reports the refusal without the token', async () => {
    const result = await cli(['--json', 'doctor'])
    expectNoSecret(result.stdout + result.stderr)
  })
})
