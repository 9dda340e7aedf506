// On a computer with no keychain, saving a token is refused in words the user can act on: the
// next step is the advice itself, never a piece of the program (it once printed `() => advice`).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { describeForTerminal, exitCodeOf } from '../../src/cli/errors'
import { createEngine } from '../../src/core/engine'
import {
  chooseSecretStore,
  NO_SECURE_PLACE,
  SecretStoreError,
  SESSION_ONLY_LABEL,
  tokenPlace,
  tokenStoreNote,
  unavailableFallback,
} from '../../src/core/secrets'
import { BridgeError } from '../../src/shared/bridge'
import { browserBridgeService, http } from '../helpers/engine'
import { useTestSandbox } from '../helpers/sandbox'

it('the refusal to save a token without a keychain carries the advice as words', async () => {
  const store = unavailableFallback('no Secret Service answered')
  const refused = await store.set('https://s.example', 'tok').catch((error: unknown) => error)
  expect(refused).toBeInstanceOf(SecretStoreError)
  const { message, nextStep } = refused as SecretStoreError
  expect(message).toBe('There is no secure place on this computer to save the token.')
  expect(typeof nextStep).toBe('string')
  expect(nextStep).toBe(store.advice())
  expect(nextStep).not.toMatch(/=>/)
})

// Without a keychain, a token can still be kept for this session only: held by the engine,
// named as such wherever the token's place is shown, and gone when a new engine starts.
describe('a token kept for this session only', () => {
  const sandbox = useTestSandbox()
  const homes: string[] = []
  afterAll(() => homes.forEach((home) => rmSync(home, { recursive: true, force: true })))

  async function engineWithoutKeychain(home: string) {
    const chosen = await chooseSecretStore({ keychain: async () => null })
    return createEngine({ home, secretStore: chosen.store, secretStoreView: chosen.view })
  }

  it('works, is named as such, and is gone after a new engine', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sr-session-token-'))
    homes.push(home)
    const engine = await engineWithoutKeychain(home)
    const bridge = browserBridgeService(engine)
    const info = await bridge.handlers.getAppInfo({}, http)
    expect(info.secretStore.canSaveTokens).toBe(false)
    expect(info.tokenNote).toMatch(/no secure place on this computer/)
    expect(info.tokenNote).toMatch(/this session only/)

    // Saving is refused with the real cause, and the way on is named.
    const refused = await bridge.handlers
      .addEnvironment({ name: 'Work', baseUrl: sandbox.url, token: sandbox.token }, http)
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(BridgeError)
    expect((refused as BridgeError).message).toBe(NO_SECURE_PLACE)
    expect((refused as BridgeError).action).toBe('keep-token-for-session')

    const list = await bridge.handlers.addEnvironment(
      { name: 'Work', baseUrl: sandbox.url, token: sandbox.token, keeping: 'session' },
      http,
    )
    const work = list.items.find((env) => env.name === 'Work')!
    expect(work.hasToken).toBe(true)
    expect(work.token).toEqual({ place: 'session', label: SESSION_ONLY_LABEL })
    const report = await engine.checkConnection({ env: 'Work' })
    expect(report.steps.map((step) => step.ok)).toEqual([true, true, true])
    bridge.dispose()
    await engine.close()

    const again = await engineWithoutKeychain(home)
    const after = (await again.listEnvironments()).find((env) => env.name === 'Work')!
    expect(after.hasToken).toBe(false)
    expect(after.token.place).toBe('none')
    const auth = (await again.checkConnection({ env: 'Work' })).steps.find((s) => s.step === 'auth')
    expect(auth?.ok).toBe(false)
    await again.close()
  })

  it('SKILL_RUNNER_TOKEN is named as the place of every saved environment', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sr-env-token-'))
    homes.push(home)
    const chosen = await chooseSecretStore({
      keychain: async () => null,
      tokenFromEnvironment: true,
    })
    const engine = createEngine({
      home,
      secretStore: chosen.store,
      secretStoreView: chosen.view,
      tokenOverride: sandbox.token,
    })
    await engine.addEnvironment({ name: 'Work', baseUrl: sandbox.url })
    const work = (await engine.listEnvironments()).find((env) => env.name === 'Work')!
    expect(work.token).toEqual({ place: 'environment', label: 'Token from SKILL_RUNNER_TOKEN' })
    expect(tokenStoreNote(engine.secretStoreView())).toBe(
      'Taken from the SKILL_RUNNER_TOKEN environment variable; nothing is saved.',
    )
    await engine.close()
  })

  it('the command line names SKILL_RUNNER_TOKEN as the way on', async () => {
    const refused = await unavailableFallback('none')
      .set('https://s.example', 'tok')
      .catch((error: unknown) => error)
    const text = describeForTerminal(refused)
    expect(text).toContain(`error: ${NO_SECURE_PLACE}`)
    expect(text).toContain('SKILL_RUNNER_TOKEN')
    expect(exitCodeOf(refused)).toBe(3)
  })
})

describe('where a token is, in one set of words', () => {
  const keychain = {
    kind: 'keychain' as const,
    description: 'the system keychain (Secret Service)',
    canSaveTokens: true,
    advice: '',
  }
  const facts = { builtIn: false, fromEnvironment: false, inSession: false, saved: false }
  it('names each place', () => {
    expect(tokenPlace({ ...facts, builtIn: true, store: keychain }).label).toBe('No account needed')
    expect(tokenPlace({ ...facts, store: keychain })).toEqual({ place: 'none', label: 'No token' })
    expect(tokenPlace({ ...facts, saved: true, store: keychain }).label).toBe(
      'Token saved in the system keychain (Secret Service)',
    )
    // The variable wins over a saved token, as it does when the token is read.
    expect(
      tokenPlace({ ...facts, saved: true, fromEnvironment: true, store: keychain }).place,
    ).toBe('environment')
    expect(tokenPlace({ ...facts, saved: true, inSession: true, store: keychain }).place).toBe(
      'session',
    )
  })
})
