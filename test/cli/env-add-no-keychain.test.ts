// `env add --token-stdin` on a computer where no keychain answers (this workplace's machines
// have none): it says the real cause and the way on, SKILL_RUNNER_TOKEN, and keeps no
// environment without its token. Where a keychain does answer, there is nothing to refuse.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, expect, it } from 'vitest'
import { runCli } from '../../src/cli/main'
import { EXIT } from '../../src/cli/errors'
import { loadKeyringStore, probeSecretStore } from '../../src/core/secrets'

const keychain = await loadKeyringStore('skill-runner-test-probe')
const hasKeychain = keychain !== null && (await probeSecretStore(keychain, 2000)) === null
const home = mkdtempSync(join(tmpdir(), 'sr-cli-nokeychain-'))
afterAll(() => rmSync(home, { recursive: true, force: true }))

async function cli(args: string[], stdin: string, env: Record<string, string> = {}) {
  let stdout = ''
  let stderr = ''
  const code = await runCli(args, {
    stdout: { write: (t: string) => (stdout += t), isTTY: false },
    stderr: { write: (t: string) => (stderr += t), isTTY: false },
    stdin: Object.assign(Readable.from([stdin]), { isTTY: false }),
    env: { SKILL_RUNNER_HOME: home, ...env },
  })
  return { code, stdout, stderr }
}

it.skipIf(hasKeychain)('env add without a keychain says to use SKILL_RUNNER_TOKEN', async () => {
  const added = await cli(
    ['env', 'add', 'work', '--base-url', 'http://127.0.0.1:9', '--token-stdin'],
    'tok-cli-123',
  )
  expect(added.code).toBe(EXIT.service)
  expect(added.stderr).toContain(
    'error: There is no secure place on this computer to save the token.',
  )
  expect(added.stderr).toContain('SKILL_RUNNER_TOKEN')
  expect(added.stderr).not.toContain('=>')
  expect(added.stderr).not.toContain('tok-cli-123')
  // No environment is left behind without its token.
  const listed = await cli(['env', 'list', '--json'], '')
  const names = (JSON.parse(listed.stdout) as { items: { name: string }[] }).items.map(
    (e) => e.name,
  )
  expect(names).not.toContain('work')

  // Saved without a token, the variable gives it, and the list says where it comes from.
  expect((await cli(['env', 'add', 'work', '--base-url', 'http://127.0.0.1:9'], '')).code).toBe(0)
  const withVariable = await cli(['env', 'list', '--json'], '', { SKILL_RUNNER_TOKEN: 'tok-x' })
  const work = (
    JSON.parse(withVariable.stdout) as { items: { name: string; token: unknown }[] }
  ).items.find((e) => e.name === 'work')
  expect(work?.token).toEqual({ place: 'environment', label: 'Token from SKILL_RUNNER_TOKEN' })
  // doctor says the same of it.
  const doctor = await cli(['doctor', '--env', 'work'], '', { SKILL_RUNNER_TOKEN: 'tok-x' })
  expect(doctor.stdout).toContain('Its token: Token from SKILL_RUNNER_TOKEN.')
})
