// The app:// protocol handler serves the built UI and nothing else.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createAppProtocolHandler } from '../../src/main/app-protocol'
import { contentSecurityPolicy } from '../../src/shared/bridge'

const base = mkdtempSync(join(tmpdir(), 'app-protocol-'))
const renderer = join(base, 'renderer')
mkdirSync(join(renderer, 'assets'), { recursive: true })
writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>UI</title>')
writeFileSync(join(renderer, 'assets', 'app.js'), 'console.log(1)')
writeFileSync(join(base, 'secret.txt'), 'do not serve')
afterAll(() => rmSync(base, { recursive: true, force: true }))

const csp = contentSecurityPolicy()
const handle = createAppProtocolHandler({ rendererDir: renderer, csp })

describe('app:// protocol', () => {
  it('serves the UI with the CSP', async () => {
    const response = await handle(new Request('app://skill-runner/'))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/text\/html/)
    expect(response.headers.get('content-security-policy')).toBe(csp)
    expect(await response.text()).toContain('<title>UI</title>')
    const script = await handle(new Request('app://skill-runner/assets/app.js'))
    expect(script.headers.get('content-type')).toMatch(/javascript/)
  })

  it('never serves a file outside the UI folder', async () => {
    for (const url of [
      'app://skill-runner/../secret.txt',
      'app://skill-runner/%2e%2e/secret.txt',
      'app://skill-runner/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      'app://skill-runner/..%5csecret.txt',
      'app://skill-runner/.hidden',
    ]) {
      const response = await handle(new Request(url))
      expect(response.status, url).toBe(404)
      expect(await response.text()).not.toContain('do not serve')
    }
  })

  it('answers only its own host and only reads', async () => {
    expect((await handle(new Request('app://elsewhere/index.html'))).status).toBe(404)
    expect(
      (await handle(new Request('app://skill-runner/index.html', { method: 'POST', body: 'x' })))
        .status,
    ).toBe(405)
    expect((await handle(new Request('app://skill-runner/missing.js'))).status).toBe(404)
  })
})
