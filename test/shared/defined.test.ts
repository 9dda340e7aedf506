import { describe, expect, it } from 'vitest'
import { defined } from '../../src/shared/defined'

describe('defined', () => {
  it('leaves out the keys whose value is undefined and keeps every other value', () => {
    const signal = new AbortController().signal
    const kept = defined({ a: undefined, b: 0, c: '', d: false, e: null, signal })
    expect(Object.keys(kept)).toEqual(['b', 'c', 'd', 'e', 'signal'])
    expect(kept).toStrictEqual({ b: 0, c: '', d: false, e: null, signal })
  })

  it('gives an empty object when nothing is given', () => {
    expect(defined({ sheet: undefined as string | undefined })).toStrictEqual({})
  })
})
