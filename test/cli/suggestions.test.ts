// A mistyped command or option is answered with the nearest real one, and the message names only
// what the user typed as the command; a prompt names the answers it takes and takes only those;
// `doctor` without a keychain says so in a user's words; options that exclude each other are
// refused alike.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough, Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import type { CommandContext } from '../../src/cli/command'
import { tokenStorageLines } from '../../src/cli/actions/system'
import { askYes } from '../../src/cli/prompt'
import { closestWords, editDistance } from '../../src/cli/suggest'
import { runCliCaptured } from '../helpers/cli'

const home = mkdtempSync(join(tmpdir(), 'sr-cli-suggest-'))
const cli = (args: string[], env: Record<string, string> = {}) =>
  runCliCaptured(args, { SKILL_RUNNER_HOME: home, ...env })

describe('options that exclude each other', () => {
  it('refuses any two given together in the same words, before anything is read or asked', async () => {
    const cases: [string[], string, string | null][] = [
      [
        ['--base-url', 'http://127.0.0.1:1', '--env', 'x', 'runs', 'list'],
        '--base-url or --env',
        null,
      ],
      [
        ['batch', 'show', 'run_1', '--template', 't', '--listing', 'l'],
        '--template ID or --listing ID',
        'batch show',
      ],
      [['usage', '--months', '2', '--days', '9'], '--months N or --days N', 'usage'],
      [
        ['execute', 'b.xlsx', '--listing', 'l', '--version', 'v', '--pilot', '2', '--rows', '2-3'],
        '--pilot N or --rows N-M',
        'execute',
      ],
      [
        ['validate', 'missing.xlsx', '--template', 't', '--map', 'A=a', '--map-file', 'm.json'],
        '--map or --map-file',
        null,
      ],
    ]
    for (const [args, options, usage] of cases) {
      const r = await cli(args)
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stderr).toContain(`give either ${options}, not both.`)
      if (usage) expect(r.stderr).toContain(`Usage: skill-runner ${usage}`)
    }
  })
})

describe('did you mean', () => {
  it('measures edits, a swap of two letters counting as one', () => {
    expect(editDistance('valdate', 'validate')).toBe(1)
    expect(editDistance('stauts', 'status')).toBe(1)
    expect(editDistance('', 'abc')).toBe(3)
    expect(closestWords('valdate', ['validate', 'upload', 'history'])).toEqual(['validate'])
    expect(closestWords('frobnicate', ['list', 'show'])).toEqual([])
  })

  it('suggests the command for a mistyped one, naming only what was typed, exit 2', async () => {
    const r = await cli(['valdate', 'book.csv', '--template', 'row-echo'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('unknown command “valdate”')
    expect(r.stderr).not.toContain('book.csv')
    expect(r.stderr).toContain('Did you mean “skill-runner validate”?')
  })

  it('names the group and its word for an unknown subcommand', async () => {
    const r = await cli(['runs', 'frobnicate', 'abc', '--limit', '3'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('unknown command “runs frobnicate”')
    expect(r.stderr).not.toContain('abc')
    const near = await cli(['runs', 'lsit'])
    expect(near.code).toBe(2)
    expect(near.stderr).toContain('Did you mean “skill-runner runs list”?')
  })

  it('suggests the option for a mistyped one, exit 2', async () => {
    const r = await cli(['runs', 'list', '--stauts', 'failed'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('unknown option “--stauts”')
    expect(r.stderr).toContain('Did you mean --status?')
    expect(r.stderr).toMatch(/Usage: skill-runner runs list/)
    const global = await cli(['runs', 'list', '--jsno'])
    expect(global.stderr).toContain('Did you mean --json?')
  })

  it('suggests in `help` too', async () => {
    const r = await cli(['help', 'valdate'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('Did you mean “skill-runner validate”?')
  })
})

/** A terminal that answers each question with the next of `answers`. */
function terminal(answers: string[]) {
  const stdin = Object.assign(new PassThrough(), { isTTY: true })
  let shown = ''
  const output = new Writable({
    write(chunk, _encoding, done) {
      shown += String(chunk)
      if (String(chunk).includes('(y or yes / n or no)')) {
        const next = answers.shift()
        if (next !== undefined) setImmediate(() => stdin.write(`${next}\n`))
      }
      done()
    },
  })
  const ctx = { stdin, signal: new AbortController().signal } as unknown as CommandContext
  return { ctx, output, shown: () => shown }
}

describe('prompt', () => {
  it('names the answers it takes and asks again for anything else', async () => {
    const t = terminal(['sure', 'yes'])
    expect(await askYes(t.ctx, 'Send it?', t.output)).toBe(true)
    expect(t.shown()).toContain('Send it? (y or yes / n or no)')
    expect(t.shown()).toContain('Please answer y or yes, or n or no.')
  })

  it('takes y, n and no', async () => {
    for (const [answer, expected] of [
      ['y', true],
      ['Y', true],
      ['n', false],
      ['no', false],
    ] as const) {
      const t = terminal([answer])
      expect(await askYes(t.ctx, 'Send it?', t.output)).toBe(expected)
    }
  })

  it('refuses clearly after three answers it does not take', async () => {
    const t = terminal(['yep', 'ok', 'yess'])
    expect(await askYes(t.ctx, 'Send it?', t.output)).toBe(false)
    expect(t.shown()).toContain('Taken as no.')
  })

  it('answers no without asking when stdin is not a terminal', async () => {
    const t = terminal(['yes'])
    Object.assign(t.ctx.stdin, { isTTY: false })
    expect(await askYes(t.ctx, 'Send it?', t.output)).toBe(false)
    expect(t.shown()).toBe('')
  })
})

describe('doctor and the keychain', () => {
  const advice = 'Install a keychain (GNOME Keyring or KWallet), then sign out and in again.'
  const command = 'sudo apt install gnome-keyring libsecret-1-0'
  /** What doctor says where no token can be saved. */
  const unsaved = (kind: 'memory' | 'environment', description: string) =>
    tokenStorageLines({ kind, description, canSaveTokens: false, advice, command }).join('\n')
  it('says there is no keychain and what to do', () => {
    const text = unsaved('memory', 'no keychain (none answered on this computer)')
    expect(text).toContain('No keychain on this computer')
    expect(text).toContain('SKILL_RUNNER_TOKEN')
    expect(text).toContain('install or unlock a keychain')
    expect(text).toContain(advice)
    // The command line keeps the command the window folds under Details.
    expect(text).toContain(`On Debian or Ubuntu: ${command}`)
  })

  it('says where the token comes from when SKILL_RUNNER_TOKEN gives it', () => {
    const text = unsaved('environment', 'the SKILL_RUNNER_TOKEN environment variable')
    expect(text).toContain('The token comes from the SKILL_RUNNER_TOKEN environment variable.')
    expect(text).toContain('No keychain on this computer')
  })

  it('names the keychain when there is one', () => {
    expect(
      tokenStorageLines({
        kind: 'keychain',
        description: 'your system keychain',
        canSaveTokens: true,
        advice: '',
      }),
    ).toEqual(['Tokens are kept in your system keychain.'])
  })

  it('never prints the D-Bus layer’s own words', async () => {
    const r = await cli(['doctor'])
    const all = r.stdout + r.stderr
    expect(all).not.toMatch(/zbus|D-Bus|Failed to connect to address|platform storage/i)
    if (!/Tokens are kept in the (system keychain|macOS|Windows)/.test(all)) {
      expect(all).toContain('No keychain on this computer')
    }
  })
})
