import { describe, expect, it } from 'vitest'
import { formatBytes } from '../../src/shared/format/bytes'

describe('formatBytes', () => {
  it('writes a size with one decimal below 10 of a unit and whole numbers above', () => {
    expect(formatBytes(0)).toBe('0 bytes')
    expect(formatBytes(1)).toBe('1 byte')
    expect(formatBytes(1023)).toBe('1023 bytes')
    expect(formatBytes(1024)).toBe('1 KB')
    expect(formatBytes(1536)).toBe('1.5 KB')
    expect(formatBytes(64 * 1024)).toBe('64 KB')
    expect(formatBytes(2.34 * 1024 * 1024)).toBe('2.3 MB')
    expect(formatBytes(32 * 1024 * 1024)).toBe('32 MB')
    expect(formatBytes(1.25 * 1024 ** 3)).toBe('1.3 GB')
  })

  it('goes up a unit rather than write 1024 of one', () => {
    expect(formatBytes(1024 * 1024 - 100)).toBe('1 MB')
    expect(formatBytes(10 * 1024 - 30)).toBe('10 KB')
  })
  it('says the size is not known rather than print a number that is not one', () => {
    expect(formatBytes(Number.NaN)).toBe('size not known')
    expect(formatBytes(-1)).toBe('size not known')
    expect(formatBytes(Infinity)).toBe('size not known')
    expect(formatBytes(0.6)).toBe('1 byte')
  })
})
