// An error answer of the engine that lost a part on the way is still shown in the engine's own
// words: the window's "could not read" is for answers that carry no words at all.
import { describe, expect, it } from 'vitest'
import { BridgeError, unwrapResult } from '../../src/shared/bridge'

const NO_PLACE = 'There is no secure place on this computer to save the token.'

function thrown(envelope: unknown): BridgeError {
  try {
    unwrapResult(envelope)
  } catch (error) {
    return error as BridgeError
  }
  throw new Error('nothing was thrown')
}

describe('reading the engine’s answer', () => {
  it('keeps the engine’s message when the next step is missing or not words', () => {
    for (const nextStep of [undefined, null, 42, { advice: 'x' }]) {
      const error = thrown({
        ok: false,
        error: { code: 'unreachable', message: NO_PLACE, nextStep },
      })
      expect(error).toBeInstanceOf(BridgeError)
      expect(error.message).toBe(NO_PLACE)
      expect(error.code).toBe('unreachable')
      expect(error.nextStep).toBe('')
    }
  })

  it('an unknown kind becomes internal, never a name from the prototype', () => {
    expect(thrown({ ok: false, error: { code: 'toString', message: NO_PLACE } }).code).toBe(
      'internal',
    )
  })

  it('an answer without words is the one the window cannot read', () => {
    for (const envelope of [null, 'x', { ok: false }, { ok: false, error: { message: '' } }]) {
      expect(thrown(envelope).message).toBe(
        'The app’s engine sent an answer the window could not read.',
      )
    }
  })
})
