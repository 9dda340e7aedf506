// The paces of earlier runs read from this computer's history (runs_seen, real SQLite), through
// the Bridge verb the runs list and a run's page ask: finished runs of each named template or
// listing only, newest first, whatever screen fetched them.
import { describe, expect, it } from 'vitest'
import type { RunSummary } from '../../src/shared/contract'
import { runStartedAt } from '../helpers/run-fixtures'
import { ipc } from '../helpers/engine'
import { useLocalBridge } from '../helpers/local-bridge'

const { engine, connection, bridge } = useLocalBridge('sr-earlier-paces-')

const T0 = 1_800_000_000

/** A run of 10 rows that ended after 5 minutes. */
const summary = (runId: string, over: Partial<RunSummary>) =>
  runStartedAt(T0, {
    runId,
    status: 'succeeded',
    totalTasks: 10,
    completedTasks: 10,
    completedAtUnix: T0 + 300,
    updatedAtUnix: T0 + 300,
    ...over,
  })

describe('earlier paces from the history', () => {
  it('gives the finished runs of the templates and listings named, and nothing else', async () => {
    engine.recordRuns(connection.historyKey, [
      summary('fast', { completedAtUnix: T0 + 60 }), // 10 rows a minute
      summary('slow', {}), // 2 rows a minute
      summary('going', { status: 'running', completedTasks: 3, completedAtUnix: 0 }),
      summary('other', { templateKey: 'other-template' }),
      summary('listed', {
        templateKey: '',
        market: { listingId: 'lst_1' } as RunSummary['market'],
      }),
    ])
    const byTemplate = await bridge.handlers.earlierPaces(
      { environment: 'Local', templateKeys: ['row-echo'], listingIds: [] },
      ipc,
    )
    expect(byTemplate.samples.map((s) => [s.runId, s.rowsPerMinute]).sort()).toEqual([
      ['fast', 10],
      ['slow', 2],
    ])
    const byListing = await bridge.handlers.earlierPaces(
      { environment: 'Local', templateKeys: [], listingIds: ['lst_1'] },
      ipc,
    )
    expect(byListing.samples).toEqual([
      { runId: 'listed', templateKey: '', listingId: 'lst_1', rowsPerMinute: 2, rowMs: 30_000 },
    ])
  })

  it('sees a run as it was last seen: once finished, it counts', async () => {
    engine.recordRuns(connection.historyKey, [summary('going', { completedAtUnix: T0 + 600 })])
    const view = await bridge.handlers.earlierPaces(
      { environment: 'Local', templateKeys: ['row-echo'], listingIds: [] },
      ipc,
    )
    expect(view.samples.find((s) => s.runId === 'going')).toMatchObject({ rowsPerMinute: 1 })
  })
})
