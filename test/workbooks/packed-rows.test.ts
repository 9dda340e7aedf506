// The rows a worker's read kept cross to the caller as one JSON text and come back as the same
// objects, keys in the reader's order (a submission's fingerprint hashes them in that order).
import { describe, expect, it } from 'vitest'
import { packedRead, unpackedRead } from '../../src/core/workbooks/worker/packed-rows'
import type { ReadResult } from '../../src/core/workbooks'

const read = (rows: ReadResult['rows']): ReadResult => ({
  valid: true,
  fileErrors: [],
  rowErrors: [],
  errorCells: [],
  rows,
  rowNumbers: rows.map((_, i) => i + 2),
  rowCount: rows.length,
})

describe('rows crossing from the worker', () => {
  it('come back equal, each row with its own keys in its own order', () => {
    const rows = [
      { name: 'a', quantity: 2, site: { url: 'https://example.com' }, tags: ['x', 'y'] },
      { quantity: 3, name: 'b', active: false },
    ]
    const posted = packedRead(read(rows))
    expect(posted.rows).toEqual([])
    const back = unpackedRead(structuredClone(posted))
    expect(back.rows).toEqual(rows)
    expect(back.rows.map((row) => Object.keys(row))).toEqual(rows.map((row) => Object.keys(row)))
    expect(JSON.stringify(back.rows)).toBe(JSON.stringify(rows))
    expect('rowsJson' in back).toBe(false)
  })

  it('leave a result read on the calling thread as it is', () => {
    const here = read([{ name: 'a' }])
    expect(unpackedRead(here)).toBe(here)
  })
})
