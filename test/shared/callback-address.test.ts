// The one rule for an address a run asks the service to call when it ends: https anywhere, http
// only to this computer, no user name or password, at most 2,048 characters.
import { describe, expect, it } from 'vitest'
import { MAX_CALLBACK_URL_LENGTH, callbackAddressProblem } from '../../src/shared/callback-address'

describe('callbackAddressProblem', () => {
  it('takes no address, https anywhere and http to this computer', () => {
    for (const ok of [
      '',
      '   ',
      'https://hooks.example.com/runs/ended?shop=12',
      'HTTPS://Example.com',
      'http://127.0.0.1:8123/ended',
      'http://127.45.2.9/',
      'http://localhost:3000/x',
      'http://LOCALHOST/x',
      'http://[::1]:9000/x',
      // The URL reader writes these shorthands of 127.0.0.1 out in full.
      'http://127.1/x',
      '  https://example.com/padded  ',
    ])
      expect(callbackAddressProblem(ok), ok).toBeNull()
  })

  it('refuses another scheme, in words that say which', () => {
    const problem = callbackAddressProblem('ftp://files.example.com/in')
    expect(problem?.message).toBe(
      'The address to call when the run ends must start with https://; “ftp://files.example.com/in” does not.',
    )
    expect(problem?.nextStep).toMatch(/https:\/\//)
    expect(callbackAddressProblem('file:///etc/passwd')).not.toBeNull()
    expect(callbackAddressProblem('javascript:alert(1)')).not.toBeNull()
  })

  it('refuses http to another computer, however it is spelled', () => {
    for (const far of [
      'http://example.com/ended',
      'http://10.0.0.5/ended',
      'http://0.0.0.0/ended',
      'http://128.0.0.1/ended',
      'http://localhost.example.com/x',
      'http://[::2]/x',
      'http://127.0.0.1.example.com/x',
    ]) {
      const problem = callbackAddressProblem(far)
      expect(problem?.message, far).toMatch(/http:\/\/ is taken only for this computer/)
    }
  })

  it('refuses a user name or password without repeating them', () => {
    for (const secret of [
      'https://ada:s3cret@hooks.example.com/x',
      'https://ada@hooks.example.com/x',
      'http://:s3cret@127.0.0.1/x',
    ]) {
      const problem = callbackAddressProblem(secret)
      expect(problem?.message, secret).toMatch(/user name or password/)
      expect(problem?.message).not.toMatch(/s3cret|ada/)
    }
  })

  it('refuses an address over 2,048 characters before reading it, and says its length', () => {
    const base = 'https://example.com/'
    const longest = base + 'a'.repeat(MAX_CALLBACK_URL_LENGTH - base.length)
    expect(callbackAddressProblem(longest)).toBeNull()
    const problem = callbackAddressProblem(longest + 'a')
    expect(problem?.message).toBe(
      'The address to call when the run ends is 2,049 characters long; at most 2,048 are taken.',
    )
  })

  it('refuses what is not an address, quoting it cut when long', () => {
    expect(callbackAddressProblem('hooks.example.com/x')?.message).toBe(
      '“hooks.example.com/x” is not a full web address, so the service could not call it when the run ends.',
    )
    const problem = callbackAddressProblem(`not an address ${'x'.repeat(200)}`)
    expect(problem?.message.length).toBeLessThan(200)
  })
})
