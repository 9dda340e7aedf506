// An environment's address: https, or plain http only on this computer, with a reason a user
// understands (the token would travel in clear text).
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { bridgeRequests } from '../../src/shared/bridge'
import { checkBaseUrl } from '../../src/shared/contract'
import { testEngine } from '../helpers/engine'

it('accepts https anywhere and http only on loopback', () => {
  for (const ok of [
    'https://skills.example.com',
    'https://skills.example.com:8443/base',
    'http://127.0.0.1:4010',
    'http://127.8.9.10',
    'http://localhost:3000',
    'http://[::1]:4010',
  ]) {
    expect(checkBaseUrl(ok).ok, ok).toBe(true)
  }
  for (const bad of [
    'http://skills.example.com',
    'http://10.0.0.2',
    'http://128.0.0.1',
    'ftp://x.example',
  ]) {
    expect(checkBaseUrl(bad).ok, bad).toBe(false)
  }
  const refused = checkBaseUrl('http://skills.example.com')
  expect(!refused.ok && refused.reason).toMatch(/clear text/)
  expect(checkBaseUrl('https://user:pw@skills.example.com').ok).toBe(false)
})

it('refuses a plain-http service elsewhere in the engine and at the Bridge, saying why', async () => {
  const engine = testEngine(mkdtempSync(join(tmpdir(), 'sr-base-url-')))
  try {
    await expect(
      engine.addEnvironment({ name: 'Plain', baseUrl: 'http://skills.example.com' }),
    ).rejects.toMatchObject({
      code: 'invalid-arguments',
      message: expect.stringMatching(/clear text/),
    })
    await expect(engine.connect({ baseUrl: 'http://skills.example.com' })).rejects.toThrow(
      /clear text/,
    )
  } finally {
    await engine.close()
  }
  const parsed = bridgeRequests.addEnvironment.args.safeParse({
    name: 'Plain',
    baseUrl: 'http://skills.example.com',
  })
  expect(parsed.success).toBe(false)
  expect(parsed.error?.issues[0]?.message).toMatch(/clear text/)
})
