// Two runs compared from the rows stored in the history (each read there as its detail arrives)
// give the comparison their details held whole give.
import { describe, expect, it } from 'vitest'
import { compareRuns } from '../../src/core/flows/compare/compare-runs'
import { sendRowEcho } from '../helpers/engine'
import { useLocalBridge } from '../helpers/local-bridge'

const { engine, connection } = useLocalBridge('sr-compare-stored-')

/** Rows of row-echo; in the second run every eleventh one fails, and some text differs. */
function echoRows(count: number, second: boolean) {
  return Array.from({ length: count }, (_, i) => ({
    message: second && i % 11 === 4 ? `row ${i} [[fail]]` : `row ${i}`,
    ...(i % 6 === 0
      ? { details: `${second && i % 12 === 0 ? 'other' : 'same'} ${i} `.repeat(10) }
      : {}),
    sequence: i + 1,
  }))
}

describe('comparing runs read from the history', () => {
  it('is the comparison of their details held whole', async () => {
    // More outputs than the comparison reads the text of: the rest are compared by name.
    const count = 450
    const numbers = Array.from({ length: count }, (_, i) => i + 2)
    const a = await sendRowEcho(engine, connection, echoRows(count, false), numbers)
    const b = await sendRowEcho(engine, connection, echoRows(count, true), numbers)
    const stored = await compareRuns(engine, connection, a, b)
    const { submissions, schemas, mappings } = engine
    const held = await compareRuns({ submissions, schemas, mappings }, connection, a, b)
    expect(stored.rows.length).toBeGreaterThanOrEqual(count)
    expect(stored.differing).toBeGreaterThan(0)
    expect(stored.notRead).toBeGreaterThan(0)
    expect(stored).toEqual(held)
  })
})
