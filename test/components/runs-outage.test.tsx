// @vitest-environment happy-dom
// The runs list while the service is away: the runs stay as last seen under a banner (never an
// empty list), and when the service answers again the banner goes and the counts are right.
// A run that "succeeded" with a failed row says so; "Needs attention" finds it.
import { act } from 'react'
import { describe, expect, it } from 'vitest'
import { RunsScreen } from '../../src/renderer/screens/RunsScreen'
import type { RunPage } from '../../src/shared/bridge'
import { environment, runSummary } from '../helpers/run-fixtures'
import { bridgeError, buttonNamed, click, render, type Harness } from './harness'

const env = environment({ name: 'Sandbox' })
let h: Harness | undefined

const runs = [
  runSummary({
    runId: 'r1',
    displayName: 'Spring',
    status: 'running',
    totalTasks: 4,
    completedTasks: 1,
  }),
  runSummary({
    runId: 'r2',
    displayName: 'Orders',
    status: 'succeeded',
    totalTasks: 3,
    completedTasks: 2,
    failedTasks: 1,
  }),
  runSummary({
    runId: 'r3',
    displayName: 'Tickets',
    status: 'succeeded',
    totalTasks: 2,
    completedTasks: 2,
  }),
  runSummary({
    runId: 'r4',
    displayName: 'Notes',
    status: 'succeeded',
    totalTasks: 1,
    completedTasks: 1,
  }),
]
const page = (items = runs): RunPage => ({
  environment: 'Sandbox',
  items,
  nextPageToken: '',
  totalCount: items.length,
})
const rowsShown = () => h!.container.querySelectorAll('tr[data-run-id]').length

describe('the runs list through an outage', () => {
  it('keeps the last-seen runs under a banner, then recovers by itself', async () => {
    let down = false
    const unreachable = () =>
      bridgeError('unreachable', 'The service did not answer.', 'Check your connection.')
    h = await render(() => <RunsScreen env={env} />, {
      listRuns: async () => {
        if (down) throw unreachable()
        return page()
      },
      watchRuns: async () => ({
        environment: 'Sandbox',
        items: runs,
        totalCount: 4,
        activeCount: 1,
      }),
      refreshRuns: async () => {
        if (down) throw unreachable()
        return { environment: 'Sandbox', items: runs, totalCount: 4, activeCount: 1 }
      },
    })
    await h.stores.runs.getState().open('Sandbox')
    await h.settle()
    expect(rowsShown()).toBe(4)

    // The engine says the service is away; Refresh fails too: the four runs stay.
    down = true
    act(() =>
      h!.stores.runs.getState().applyReachability({
        environment: 'Sandbox',
        unreachableSinceMs: Date.UTC(2026, 0, 5, 14, 2),
        retryMs: 30_000,
      }),
    )
    await click(buttonNamed(h.container, 'Refresh'))
    await h.settle()
    const banner = h.container.querySelector('[data-testid="runs-unreachable"]')!
    expect(banner.textContent).toMatch(/Can’t reach the service since .+, trying again every 30 s/)
    expect(rowsShown()).toBe(4)
    expect(h.text()).not.toContain('0 runs')
    expect(h.container.querySelector('tr[data-run-id="r1"][data-last-seen]')).toBeTruthy()

    // Back: the engine pushes the page and the all-clear.
    down = false
    act(() => {
      h!.stores.runs
        .getState()
        .applyUpdate({ environment: 'Sandbox', items: runs, totalCount: 4, activeCount: 1 })
      h!.stores.runs
        .getState()
        .applyReachability({ environment: 'Sandbox', unreachableSinceMs: null, retryMs: 30_000 })
    })
    await h.settle()
    expect(h.container.querySelector('[data-testid="runs-unreachable"]')).toBeNull()
    expect(rowsShown()).toBe(4)
    expect(h.text()).toContain('4 runs')
  })

  it('says a run finished with a failed row, and "Needs attention" shows only it', async () => {
    h = await render(() => <RunsScreen env={env} />, {
      listRuns: async () => page(runs.slice(1)),
      watchRuns: async () => ({ environment: 'Sandbox', items: [], totalCount: 3, activeCount: 0 }),
    })
    await h.stores.runs.getState().open('Sandbox')
    await h.settle()
    const badge = h.container.querySelector('tr[data-run-id="r2"] .badge')!
    expect(badge.textContent).toBe('Finished with 1 failed (2 of 3 succeeded)')
    expect(badge.className).toContain('badge-warn')
    await act(() => h!.stores.runs.getState().setStatus('attention'))
    await h.settle()
    expect(
      [...h.container.querySelectorAll('tr[data-run-id]')].map((r) =>
        r.getAttribute('data-run-id'),
      ),
    ).toEqual(['r2'])
  })
})
