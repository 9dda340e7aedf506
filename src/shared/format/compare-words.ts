/**
 * How two runs compare, in words: rows that are in one run only are not "rows that differ", so
 * they are counted apart ("4 rows in both, 0 differ; 26 only in B"). The same in the app and the
 * CLI.
 */
import { plural } from './amounts'
import type { CompareRow } from '../bridge/views/compare'

export function comparisonCounts(rows: readonly Pick<CompareRow, 'a' | 'b' | 'differs'>[]) {
  let both = 0
  let differ = 0
  let onlyA = 0
  let onlyB = 0
  for (const row of rows) {
    if (row.a && row.b) {
      both += 1
      if (row.differs) differ += 1
    } else if (row.a) onlyA += 1
    else onlyB += 1
  }
  const parts = [`${plural(both, 'row')} in both, ${differ} ${differ === 1 ? 'differs' : 'differ'}`]
  if (onlyA) parts.push(`${onlyA.toLocaleString('en-US')} only in A`)
  if (onlyB) parts.push(`${onlyB.toLocaleString('en-US')} only in B`)
  return parts.join('; ')
}
