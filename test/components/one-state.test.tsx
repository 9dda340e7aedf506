// @vitest-environment happy-dom
// One state, said once: what a screen shows after an action agrees with itself, with no
// sentence repeated and nothing left over from before the action.
import { describe, expect, it } from 'vitest'
import { RunsScreen } from '../../src/renderer/screens/RunsScreen'
import type { RunOverview } from '../../src/shared/bridge'
import { environment, runOverview, runSummary } from '../renderer/fixtures'
import { render } from './harness'

const env = environment({ name: 'Sandbox' })

/** The runs screen of Sandbox with run-1 open, read as `overview`. */
async function openRun(overview: RunOverview) {
  const run = overview.detail.run
  const h = await render(
    (stores) => {
      stores.nav.getState().openRun('run-1')
      return <RunsScreen env={env} />
    },
    {
      listRuns: async () => ({
        environment: 'Sandbox',
        items: [run],
        nextPageToken: '',
        totalCount: 1,
      }),
      watchRuns: async () => ({ environment: 'Sandbox', items: [], totalCount: 1, activeCount: 0 }),
      getRunOverview: async () => overview,
      followRun: async () => null,
      unfollowRun: async () => null,
    },
  )
  await h.settle()
  return h
}

const count = (text: string | null | undefined, words: string) =>
  (text ?? '').split(words).length - 1

describe('one state, said once', () => {
  it('a run whose rows were sent again in two later runs says so in one sentence', async () => {
    const run = runSummary({ status: 'succeeded' })
    const shown = await openRun(
      runOverview({
        detail: { run, market: undefined, tasks: [], artifacts: [] },
        retriedBy: ['run-2', 'run-3'],
      }),
    )
    const links = shown.container.querySelector('.run-links')?.textContent
    expect(count(links, 'Rows sent again')).toBe(1)
    expect(links).toContain('Rows sent again in 2 later runs: the first, the second.')
  })
})
