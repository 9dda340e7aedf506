// The token store is chosen when a command first needs it: a check on the built-in Sandbox, which
// has its own token, never loads the OS keychain's binding; `doctor`, which describes the store,
// still does. Seen from outside, in the modules node reports loading (NODE_DEBUG=module).
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { spawnCliSource } from '../helpers/cli'

const dir = mkdtempSync(join(tmpdir(), 'sr-cli-token-store-'))
const home = join(dir, 'home')
const csv = join(dir, 'three.csv')
writeFileSync(csv, 'Message,Sequence number\nhello,1\nagain,2\nthree,3\n')

function keychainInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('@napi-rs/keyring')
    return true
  } catch {
    return false
  }
}

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnCliSource(args, { SKILL_RUNNER_HOME: home, NODE_DEBUG: 'module' })
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
}

describe('the token store, chosen on first use', () => {
  it('is not loaded to validate on the built-in Sandbox', async () => {
    const result = await run(['validate', csv, '--template', 'row-echo'])
    expect(result.stdout).toContain('The workbook is valid.')
    expect(result.code).toBe(0)
    expect(result.stderr).not.toContain('@napi-rs/keyring')
  }, 60_000)

  it('is chosen for doctor, which says how tokens are kept', async () => {
    const result = await run(['doctor'])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('Token accepted')
    if (keychainInstalled()) expect(result.stderr).toContain('@napi-rs/keyring')
  }, 60_000)
})
