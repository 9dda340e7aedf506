// A data folder that cannot be made or written (SKILL_RUNNER_HOME below a file, on a file system
// that holds no folders, without write permission) is a mistake the user can correct: the
// message names the folder, says why, and the command line says how to choose another.
import { spawn } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runCliCaptured } from '../helpers/cli'
import { dataFolderError } from '../../src/core/storage/home'
import { UserFacingError } from '../../src/core/errors'

const root = fileURLToPath(new URL('../..', import.meta.url))
/** The unprivileged account's user and group id on Linux. */
const NOBODY = 65534
const scratch = mkdtempSync(join(tmpdir(), 'sr-data-folder-'))
const aFile = join(scratch, 'a-file')
writeFileSync(aFile, 'not a folder')

const envList = (home: string) => runCliCaptured(['env', 'list'], { SKILL_RUNNER_HOME: home })

function expectDataFolderMessage(
  result: { code: number; stderr: string },
  folder: string,
  why: RegExp,
) {
  expect(result.code).toBe(2)
  expect(result.stderr).not.toMatch(/bug/i)
  expect(result.stderr).toContain(`“${folder}”`)
  expect(result.stderr).toMatch(why)
  expect(result.stderr).toContain('Set SKILL_RUNNER_HOME to another folder.')
}

describe('a data folder that cannot be made', () => {
  it('below a file (ENOTDIR)', async () => {
    const folder = join(aFile, 'skill-runner')
    expectDataFolderMessage(await envList(folder), folder, /is a file, not a folder/)
  })

  it('that is itself a file', async () => {
    expectDataFolderMessage(await envList(aFile), aFile, /is a file, not a folder/)
  })

  it('where the file system makes no folders (/proc), without hanging', async () => {
    const folder = '/proc/skill-runner-data-folder-test'
    const result = await envList(folder)
    expectDataFolderMessage(result, folder, /cannot hold a new folder/)
  }, 20_000)

  it('without write permission (EACCES), as an account that is not root', async () => {
    const locked = join(scratch, 'locked')
    mkdirSync(locked)
    chmodSync(locked, 0o555)
    chmodSync(scratch, 0o755)
    try {
      const folder = join(locked, 'skill-runner')
      expectDataFolderMessage(await envListUnprivileged(folder), folder, /may not write/)
      expectDataFolderMessage(await envListUnprivileged(locked), locked, /may not write/)
    } finally {
      chmodSync(locked, 0o755)
    }
  }, 60_000)
})

/**
 * `env list` as an account that permissions apply to: this one, or `nobody` when the tests run
 * as root (root may write anywhere), in a child process started with that account's ids.
 */
async function envListUnprivileged(home: string): Promise<{ code: number; stderr: string }> {
  if (process.getuid?.() !== 0) return envList(home)
  const main = JSON.stringify(join(root, 'src/cli/main.ts'))
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `const { runCli } = await import(${main}); process.exitCode = await runCli(['env', 'list'])`,
    ],
    {
      cwd: root,
      env: { ...process.env, SKILL_RUNNER_HOME: home, HOME: tmpdir() },
      stdio: ['ignore', 'ignore', 'pipe'],
      uid: NOBODY,
      gid: NOBODY,
    },
  )
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += String(chunk)))
  const code = await new Promise<number>((done) => child.on('exit', (c) => done(c ?? -1)))
  return { code, stderr }
}

describe('dataFolderError', () => {
  const errno = (code: string) => Object.assign(new Error(`${code}: fake`), { code })

  it.each([
    ['EACCES', /may not write/],
    ['EPERM', /may not write/],
    ['ENOTDIR', /is a file, not a folder/],
    ['EROFS', /read-only/],
    ['ENOSPC', /full/],
  ])('says %s in words, with the folder and the action to choose another', (code, why) => {
    const error = dataFolderError('/data/skill-runner', errno(code))
    expect(error).toBeInstanceOf(UserFacingError)
    const facing = error as UserFacingError
    expect(facing.category).toBe('bad-input')
    expect(facing.action).toBe('choose-data-folder')
    expect(facing.message).toContain('“/data/skill-runner”')
    expect(facing.message).toMatch(why)
    expect(facing.message).not.toContain(code)
  })

  it('leaves an error that is not about the file system as it is (a bug stays a bug)', () => {
    const bug = new TypeError('x is undefined')
    expect(dataFolderError('/data', bug)).toBe(bug)
  })
})
