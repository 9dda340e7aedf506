// @vitest-environment happy-dom
// One state, said once: what a screen shows after an action agrees with itself, with no
// sentence repeated and nothing left over from before the action.
import { describe, expect, it } from 'vitest'
import { act } from 'react'
import { App } from '../../src/renderer/components/App'
import { RunsScreen } from '../../src/renderer/screens/RunsScreen'
import type { RunOverview } from '../../src/shared/bridge'
import {
  environment,
  runOverview,
  runSummary,
  sentAs,
  submissionPlan,
} from '../helpers/run-fixtures'
import {
  bridgeError,
  buttonNamed,
  pending,
  byLabel,
  click,
  render,
  typeInto,
  type FakeVerbs,
} from './harness'

const env = environment({ name: 'Sandbox' })

/** The runs screen of Sandbox with run-1 open, read as `overview`. */
async function openRun(overview: RunOverview, more: FakeVerbs = {}) {
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
      watchRun: async () => null,
      unwatchRun: async () => null,
      ...more,
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

  it('after a redo is sent, its row box is empty and "Redo rows" waits for rows', async () => {
    const run = runSummary({ status: 'succeeded' })
    const shown = await openRun(
      runOverview({ detail: { run, market: undefined, tasks: [], artifacts: [] } }),
      {
        planRedo: (async () => submissionPlan([1])) as never,
        confirmSubmission: (async () => sentAs('run-2')) as never,
      },
    )
    const box = byLabel(shown.container, 'Redo rows')
    await typeInto(box, '1')
    await click(buttonNamed(shown.container, 'Redo 1 row'))
    await shown.settle()
    await click(shown.container.querySelector('.confirm-agree input')!)
    await click(buttonNamed(shown.container, /^Send for/))
    await shown.settle()
    expect(shown.text()).toContain('Sent as a new run.')
    expect(byLabel(shown.container, 'Redo rows').value).toBe('')
    expect(buttonNamed(shown.container, 'Redo rows').disabled).toBe(true)
  })
})

describe('a new token', () => {
  it('reads the runs again: the old refusal and "0 runs" go without a "Try again"', async () => {
    const work = environment({ name: 'Work', isDefault: true })
    let accepted = false
    const h = await render(() => <App />, {
      getAppInfo: () => pending(),
      listEnvironments: async () => ({ items: [work] }),
      setToken: (async () => {
        accepted = true
        return { items: [work] }
      }) as never,
      listRuns: async () => {
        if (!accepted)
          throw bridgeError('unauthorized', 'The service did not accept the API token.')
        return { environment: 'Work', items: [runSummary()], nextPageToken: '', totalCount: 1 }
      },
      watchRuns: async () => ({ environment: 'Work', items: [], totalCount: 1, activeCount: 1 }),
    })
    await act(async () => h.stores.nav.getState().show('runs'))
    await h.settle()
    expect(h.text()).toContain('did not accept the API token')
    expect(await h.stores.environments.getState().setToken('Work', 'tok-new', 'saved')).toBeNull()
    await h.settle()
    expect(h.text()).not.toContain('did not accept the API token')
    expect(h.text()).toContain('Run one')
  })
})

describe('a row sent again', () => {
  it('shows its later run running, then its outcome, as that run moves', async () => {
    const run = runSummary({ status: 'succeeded' })
    let later = 'running'
    const shown = await openRun(
      runOverview({
        detail: { run, market: undefined, tasks: [], artifacts: [] },
        retriedBy: ['run-2'],
      }),
      {
        rowVersions: (async () => ({
          items: [
            {
              label: 'Row 2',
              versions: [
                { runId: 'run-1', status: 'failed' },
                { runId: 'run-2', status: later },
              ],
              kept: 0,
              index: 0,
              keptBy: 'rule',
            },
          ],
        })) as never,
      },
    )
    const versions = () => shown.container.querySelector('.row-versions')?.textContent ?? ''
    expect(versions()).toContain('sent again (running')
    later = 'succeeded'
    const ended = runSummary({ runId: 'run-2', status: 'succeeded', updatedAtUnix: 99 })
    await act(async () => shown.stores.runSummaries.getState().put('Sandbox', [ended]))
    await shown.settle()
    expect(versions()).toContain('sent again (succeeded')
  })
})
