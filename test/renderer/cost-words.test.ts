// The cost of a template run, said the same before and after the send: the confirm of a first
// pilot says the estimate is the service's and comes only once it has the rows, and the run's
// page names the estimate it then shows as the service's.
import { describe, expect, it } from 'vitest'
import { estimateSourceWords } from '../../src/shared/format/amounts'
import { costLines } from '../../src/renderer/runs/run-view'
import { runOverview, runSummary } from '../helpers/run-fixtures'

describe('a template run’s estimate, before and after the send', () => {
  it('before: unknown because the service gives it only once it has the rows', () => {
    const words = estimateSourceWords({
      rowCount: 4,
      estimateT: null,
      estimateSource: 'none',
      taskFixedFeeT: null,
      learnedFrom: null,
      unitLabel: 'credits',
      targetKind: 'template',
      isPilot: true,
    })
    expect(words).toMatch(/gives its estimate only once it has the rows/)
    expect(words).toMatch(/this pilot will tell it\.$/)
  })

  it('after: the estimate on the run’s page is the service’s, once it had the rows', () => {
    const run = runSummary({ status: 'running', estimatedCostT: 4, actualCostT: 0 })
    const lines = costLines(
      runOverview({ detail: { run, market: undefined, tasks: [], artifacts: [] } }),
    )
    expect(lines[0]).toEqual({
      label: 'Estimate',
      value: '4 credits, the service’s once it had the rows',
    })
  })
})
