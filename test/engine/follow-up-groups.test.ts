// History's grouping of a run with its follow-ups (its set-aside rows, fixed and sent later):
// each follow-up sits under its run, the group stands where its newest member stood, and
// anything else keeps its newest-first place.
import { describe, expect, it } from 'vitest'
import { withFollowUpsTogether } from '../../src/core/flows/history/follow-up-groups'
import type { HistoryEntryView } from '../../src/shared/bridge'

function entry(id: number, runId: string, over: Partial<HistoryEntryView> = {}): HistoryEntryView {
  return {
    id,
    environment: 'Sandbox',
    target: 'row-echo',
    targetKind: 'template',
    inputFilename: `${runId}.xlsx`,
    rows: 1,
    state: 'accepted',
    error: '',
    runId,
    runStatus: '',
    runName: '',
    runCounts: null,
    costT: 0,
    costIsEstimate: true,
    unitLabel: 'credits',
    downloadedFiles: 0,
    retryOfRunId: '',
    retries: [],
    createdAtMs: id,
    ...over,
  }
}
const ids = (items: HistoryEntryView[]) => items.map((i) => i.runId)

describe('a run and its follow-ups together', () => {
  it('moves each follow-up under its run, the group where its newest member was', () => {
    // Newest first: e (follow-up of b), d, c (follow-up of b), b, a.
    const items = [
      entry(5, 'e', { followUpOfRunId: 'b', retryOfRunId: 'b' }),
      entry(4, 'd'),
      entry(3, 'c', { followUpOfRunId: 'b', retryOfRunId: 'b' }),
      entry(2, 'b', { followUps: ['c', 'e'] }),
      entry(1, 'a'),
    ]
    expect(ids(withFollowUpsTogether(items))).toEqual(['b', 'c', 'e', 'd', 'a'])
  })

  it('keeps a chain of follow-ups under the first run, and leaves a retry where it was', () => {
    const items = [
      entry(4, 'r', { retryOfRunId: 'a' }),
      entry(3, 'c', { followUpOfRunId: 'b' }),
      entry(2, 'b', { followUpOfRunId: 'a' }),
      entry(1, 'a'),
    ]
    expect(ids(withFollowUpsTogether(items))).toEqual(['r', 'a', 'b', 'c'])
  })

  it('leaves a follow-up in place when its run is not listed, or is in another environment', () => {
    const items = [
      entry(3, 'c', { followUpOfRunId: 'gone' }),
      entry(2, 'b', { followUpOfRunId: 'a', environment: 'Market' }),
      entry(1, 'a'),
    ]
    expect(ids(withFollowUpsTogether(items))).toEqual(['c', 'b', 'a'])
  })

  it('stops on a loop a damaged journal could hold, listing each entry once', () => {
    const items = [entry(2, 'b', { followUpOfRunId: 'a' }), entry(1, 'a', { followUpOfRunId: 'b' })]
    const out = withFollowUpsTogether(items)
    expect(out).toHaveLength(2)
    expect(new Set(ids(out))).toEqual(new Set(['a', 'b']))
  })

  it('keeps the rest of a pilot under its pilot, even with a run sent in between', () => {
    const items = [
      entry(3, 'rest', { batchOfRunId: 'pilot' }),
      entry(2, 'other'),
      entry(1, 'pilot', { batchRests: ['rest'] }),
    ]
    expect(ids(withFollowUpsTogether(items))).toEqual(['pilot', 'rest', 'other'])
  })
})
