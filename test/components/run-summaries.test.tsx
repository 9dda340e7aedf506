// @vitest-environment happy-dom
// The runs list and the open run read one cache of run summaries: news of a run that reaches
// either is what both show at once, and an older summary never replaces a newer one.
import { act } from 'react'
import { describe, expect, it } from 'vitest'
import { RunsScreen } from '../../src/renderer/screens/RunsScreen'
import { environment, runOverview, runSummary } from '../helpers/run-fixtures'
import { render, type Harness } from './harness'

const env = environment({ name: 'Sandbox' })
let h: Harness | undefined

const first = runSummary({ completedTasks: 1, updatedAtUnix: 10 })

const overview = () =>
  runOverview({ detail: { run: first, market: undefined, tasks: [], artifacts: [] } })

/** The runs list of Sandbox with run-1 in it, and run-1 open on screen. */
async function listAndDetail() {
  let reads = 0
  h = await render(
    (stores) => {
      stores.nav.getState().openRun('run-1')
      return <RunsScreen env={env} />
    },
    {
      listRuns: async () => ({
        environment: 'Sandbox',
        items: [first],
        nextPageToken: '',
        totalCount: 1,
      }),
      watchRuns: async () => ({ environment: 'Sandbox', items: [], totalCount: 1, activeCount: 1 }),
      getRunOverview: async () => {
        reads++
        return overview()
      },
      watchRun: async () => null,
      unwatchRun: async () => null,
    },
  )
  await act(async () => h!.stores.runs.getState().open('Sandbox'))
  await h.settle()
  return { reads: () => reads }
}

const shownProgress = () => h!.container.querySelector('.run-progress .progress-text')?.textContent

describe('one cache of run summaries', () => {
  it('a summary the runs list receives is what the open run shows, without reading it again', async () => {
    const { reads } = await listAndDetail()
    expect(shownProgress()).toBe('1 of 4 rows succeeded')
    const newer = runSummary({ completedTasks: 3, updatedAtUnix: 20 })
    await act(async () =>
      h!.stores.runs
        .getState()
        .applyUpdate({ environment: 'Sandbox', items: [newer], totalCount: 1, activeCount: 1 }),
    )
    await h!.settle()
    expect(shownProgress()).toBe('3 of 4 rows succeeded')
    expect(reads()).toBe(1)
    expect(h!.stores.runs.getState().items[0]).toBe(newer)
  })

  it('a summary the open run receives is what the runs list shows', async () => {
    await listAndDetail()
    const pushed = runSummary({ completedTasks: 2, updatedAtUnix: 30 })
    await act(async () =>
      h!.stores.runDetail.getState().applyDetailUpdate({
        environment: 'Sandbox',
        detail: { ...overview().detail, run: pushed },
      }),
    )
    expect(h!.stores.runs.getState().items[0]).toBe(pushed)

    const ended = runSummary({ status: 'succeeded', completedTasks: 4, updatedAtUnix: 40 })
    await act(async () =>
      h!.stores.runDetail
        .getState()
        .applyRunEnded({ environment: 'Sandbox', unitLabel: 'credits', run: ended }),
    )
    expect(h!.stores.runs.getState().items[0]).toBe(ended)
  })

  it('an older summary arriving late changes neither', async () => {
    await listAndDetail()
    const newer = runSummary({ completedTasks: 3, updatedAtUnix: 20 })
    await act(async () =>
      h!.stores.runs
        .getState()
        .applyUpdate({ environment: 'Sandbox', items: [newer], totalCount: 1, activeCount: 1 }),
    )
    await act(async () =>
      h!.stores.runDetail.getState().applyDetailUpdate({
        environment: 'Sandbox',
        detail: { ...overview().detail, run: runSummary({ completedTasks: 2, updatedAtUnix: 15 }) },
      }),
    )
    await h!.settle()
    expect(shownProgress()).toBe('3 of 4 rows succeeded')
    expect(h!.stores.runs.getState().items[0]).toBe(newer)
  })
})
