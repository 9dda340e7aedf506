// Rows in one run only are counted apart from rows that differ: a second run with 26 more rows
// than the first is not "26 of 30 rows differ".
import { describe, expect, it } from 'vitest'
import { comparisonCounts } from '../../src/shared/format/compare-words'

const side = {} as never
const row = (a: boolean, b: boolean, differs = !(a && b)) => ({
  a: a ? side : null,
  b: b ? side : null,
  differs,
})

describe('comparisonCounts', () => {
  it('says rows in both, how many of them differ, and rows in one run only', () => {
    const rows = [...Array.from({ length: 4 }, () => row(true, true, false))]
    rows.push(...Array.from({ length: 26 }, () => row(false, true)))
    expect(comparisonCounts(rows)).toBe('4 rows in both, 0 differ; 26 only in B')
    expect(comparisonCounts([row(true, true, true), row(true, false)])).toBe(
      '1 row in both, 1 differs; 1 only in A',
    )
  })
})
