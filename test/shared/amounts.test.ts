// Counts and amounts said once, the same everywhere: never "1 credits".
import { describe, expect, it } from 'vitest'
import {
  agreeWords,
  amountT,
  formatAmount,
  leftT,
  shareT,
  sumT,
  timesT,
  estimateSourceWords,
  estimateWords,
  plural,
  type EstimateFacts,
} from '../../src/shared/format/amounts'

const facts = (over: Partial<EstimateFacts> = {}): EstimateFacts => ({
  rowCount: 3,
  estimateT: 3,
  estimateSource: 'pilot',
  taskFixedFeeT: null,
  learnedFrom: { runId: 'run_1', costPerRowT: 1 },
  unitLabel: 'credits',
  targetKind: 'template',
  ...over,
})

describe('amounts in words', () => {
  it('one is singular, everything else plural', () => {
    expect(plural(1, 'row')).toBe('1 row')
    expect(plural(0, 'row')).toBe('0 rows')
    expect(plural(2, 'row')).toBe('2 rows')
    expect(plural(1250, 'row')).toBe('1,250 rows')
    expect(plural(2, 'entry', 'entries')).toBe('2 entries')
  })

  it('says the default unit in the singular for one; an operator’s label as given', () => {
    expect(formatAmount(1, 'credits')).toBe('1 credit')
    expect(formatAmount(2, 'credits')).toBe('2 credits')
    expect(formatAmount(1.5, '')).toBe('1.5 credits')
    expect(formatAmount(1, 'EUR cents')).toBe('1 EUR cents')
  })

  it('says an estimate with what it is made of', () => {
    expect(estimateWords(facts())).toBe('about 3 credits: 3 rows at 1 credit per row')
    expect(estimateWords(facts({ rowCount: 1, estimateT: 1 }))).toBe(
      'about 1 credit: 1 row at 1 credit per row',
    )
    expect(
      estimateWords(
        facts({ estimateSource: 'fee', taskFixedFeeT: 4, estimateT: 12, learnedFrom: null }),
      ),
    ).toBe('about 12 credits: 3 rows at 4 credits per row')
    expect(estimateWords(facts({ estimateT: null, estimateSource: 'none' }))).toBe(
      'unknown before the run',
    )
  })

  it('names the estimate’s source, or says plainly that it is unknown', () => {
    expect(estimateSourceWords(facts())).toBe('the last run’s cost per row (run run_1)')
    expect(
      estimateSourceWords(facts({ estimateSource: 'fee', taskFixedFeeT: 1, learnedFrom: null })),
    ).toBe('the service’s estimate (the listing’s fee per row)')
    expect(
      estimateSourceWords(facts({ estimateT: null, estimateSource: 'none', learnedFrom: null })),
    ).toMatch(/^unknown\. /)
    // A pilot is itself how the cost is learned: it is not told to send one.
    const unknownPilot = facts({ estimateT: null, estimateSource: 'none', learnedFrom: null })
    expect(estimateSourceWords(unknownPilot)).toMatch(/send a pilot of a few rows first/)
    expect(estimateSourceWords({ ...unknownPilot, isPilot: true })).toMatch(
      /this pilot will tell it\.$/,
    )
  })

  it('the agreement names the cap when one is set, else the estimate', () => {
    expect(agreeWords(facts(), 5)).toBe('I agree to pay up to 5 credits for this run.')
    expect(agreeWords(facts({ targetKind: 'listing' }), 1)).toBe(
      'I agree to pay up to 1 credit for this run, under the listing’s terms.',
    )
    expect(agreeWords(facts(), undefined)).toMatch(/^I agree to pay about 3 credits for this run/)
    expect(agreeWords(facts({ estimateT: null }), undefined)).toMatch(/known only once it ends/)
    // An unknown cost cannot be held to a cap: the box never promises one the screen says it
    // cannot check.
    const unknown = agreeWords(facts({ estimateT: null }), 10)
    expect(unknown).toMatch(/known only once it ends/)
    expect(unknown).not.toMatch(/up to 10/)
  })

  it('the agreement of rows sent as parts names the runs they make', () => {
    expect(agreeWords(facts({ runs: 3 }), 5)).toBe(
      'I agree to pay up to 5 credits for these 3 runs.',
    )
    expect(agreeWords(facts({ runs: 3 }), undefined)).toMatch(
      /^I agree to pay about 3 credits for these 3 runs \(the actual cost is charged\)\.$/,
    )
    expect(agreeWords(facts({ runs: 3, estimateT: null }), undefined)).toBe(
      'I agree to pay what these 3 runs cost; the amount is known only once they end.',
    )
    expect(agreeWords(facts({ runs: 1 }), 5)).toBe('I agree to pay up to 5 credits for this run.')
  })

  it('an unknown cost never claims that no run has ended (a pilot may just have)', () => {
    const unknown = facts({ estimateT: null, estimateSource: 'none', learnedFrom: null })
    for (const kind of ['template', 'listing'] as const) {
      const words = estimateSourceWords({ ...unknown, targetKind: kind })
      expect(words).not.toMatch(/has ended here/)
      expect(words).toMatch(/told its cost per row yet/)
    }
  })
})

describe('amounts in the service unit', () => {
  it('add, multiply and share without losing or inventing a unit', () => {
    expect(sumT([3, 4, 5])).toBe(12)
    expect(timesT(amountT(4), 30)).toBe(120)
    // Parts' shares of an estimate add up to it exactly: nearest at each cut, differences between.
    const whole = amountT(10)
    const cuts = [0, 1, 2, 3].map((at) => shareT(whole, at, 3, 'nearest'))
    expect(cuts[3]! - cuts[0]!).toBe(10)
    expect(shareT(amountT(10), 1, 3, 'up')).toBe(4)
    expect(shareT(amountT(10), 1, 4, 'exact')).toBe(2.5)
    expect(leftT(amountT(100), amountT(130))).toBe(0)
    expect(amountT(null)).toBeNull()
  })
})
