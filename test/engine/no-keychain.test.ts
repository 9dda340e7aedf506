// On a computer with no keychain, saving a token is refused in words the user can act on: the
// next step is the advice itself, never a piece of the program (it once printed `() => advice`).
import { expect, it } from 'vitest'
import { SecretStoreError, unavailableFallback } from '../../src/core/secrets'

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
