// @vitest-environment happy-dom
import { act } from 'react'
import { describe, expect, it } from 'vitest'
import { RunsScreen } from '../../src/renderer/screens/RunsScreen'
import type { RunOverview, RunPage, RunsUpdate, SubmissionPlanView } from '../../src/shared/bridge'
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
  byLabel,
  click,
  pending,
  render,
  typeInto,
  type Harness,
} from './harness'

// Handing 10,000 runs or rows to a screen in happy-dom takes seconds, far longer on a loaded
// machine; these tests check the windowing, not the time, so they get room beyond the default.
const BIG_LIST_TIMEOUT_MS = 180_000

const env = environment({ name: 'Sandbox' })
let h: Harness | undefined

const page = (items = [runSummary()], nextPageToken = ''): RunPage => ({
  environment: 'Sandbox',
  items,
  nextPageToken,
  totalCount: items.length,
})
const update = (items = [runSummary()]): RunsUpdate => ({
  environment: 'Sandbox',
  items,
  totalCount: items.length,
  activeCount: 0,
})

async function openRuns(verbs: Parameters<typeof render>[1]) {
  h = await render(() => <RunsScreen env={env} />, verbs)
  await h.stores.runs.getState().open('Sandbox')
  await h.settle()
  return h
}

describe('the runs list', () => {
  it('says it is loading until the first page comes', async () => {
    await render(() => <RunsScreen env={env} />, { listRuns: () => pending() }).then((x) => {
      h = x
      void x.stores.runs.getState().open('Sandbox')
    })
    await h!.settle()
    expect(h!.text()).toContain('Loading runs…')
  })

  it('says there are no runs yet', async () => {
    await openRuns({ listRuns: async () => page([]), watchRuns: async () => update([]) })
    expect(h!.text()).toContain('No runs yet.')
  })

  it('shows what went wrong and what to do when the service is out of reach (offline)', async () => {
    await openRuns({
      listRuns: async () => {
        throw bridgeError('unreachable', 'The service did not answer.', 'Check your connection.')
      },
      watchRuns: async () => {
        throw bridgeError('unreachable', 'The service did not answer.', 'Check your connection.')
      },
    })
    const alert = h!.container.querySelector('[role="alert"]')!
    expect(alert.textContent).toContain('The service did not answer.')
    expect(alert.textContent).toContain('Check your connection.')
    expect(buttonNamed(h!.container, 'Try again')).toBeTruthy()
  })

  it('after a reload, a run whose outputs are saved here offers to save them again', async () => {
    const runs = [
      runSummary({ runId: 'saved', displayName: 'Spring catalogue', status: 'succeeded' }),
      runSummary({ runId: 'not-saved', displayName: 'Tickets', status: 'succeeded' }),
    ]
    await openRuns({
      listRuns: async () => ({
        ...page(runs),
        saved: [
          { runId: 'saved', folder: '/home/ada/Downloads/Skill Runner/run_saved', files: 29 },
        ],
      }),
      watchRuns: async () => update(runs),
    })
    const row = (runId: string) => h!.container.querySelector(`[data-run-id="${runId}"]`)!
    expect(row('saved').textContent).toContain('Saved 29 files')
    expect(row('saved').textContent).toContain('Save again')
    expect(row('saved').textContent).not.toContain('Save outputs')
    expect(row('not-saved').textContent).toContain('Save outputs')
  })

  it('gives a run’s name and what it ran their whole text as tooltips, cut or not', async () => {
    const long = 'A catalogue of spring products with a name far longer than the column'
    const runs = [
      runSummary({
        runId: 'long',
        displayName: long,
        templateName: 'Product texts',
        inputFilename: 'spring-products-final-v3.xlsx',
      }),
    ]
    await openRuns({ listRuns: async () => page(runs), watchRuns: async () => update(runs) })
    const row = h!.container.querySelector('[data-run-id="long"]')!
    expect(row.querySelector('.run-name')!.getAttribute('title')).toBe(`Open ${long}`)
    expect(row.querySelector('.run-sub')!.getAttribute('title')).toMatch(
      /^Product texts · spring-products-final-v3\.xlsx · ./,
    )
  })

  it('puts what succeeded and what failed on lines of their own, the whole as the tooltip', async () => {
    const runs = [
      runSummary({ runId: 'mixed', totalTasks: 3, completedTasks: 2, failedTasks: 1 }),
      runSummary({ runId: 'clean', totalTasks: 3, completedTasks: 3, failedTasks: 0 }),
    ]
    await openRuns({ listRuns: async () => page(runs), watchRuns: async () => update(runs) })
    const lines = (id: string) =>
      [...h!.container.querySelectorAll(`[data-run-id="${id}"] .progress-line`)].map(
        (l) => l.textContent,
      )
    expect(lines('mixed')).toEqual(['2 of 3 rows succeeded, ', '1 failed'])
    expect(
      h!.container.querySelector('[data-run-id="mixed"] .progress-text')!.getAttribute('title'),
    ).toBe('2 of 3 rows succeeded, 1 failed')
    expect(lines('clean')).toEqual(['3 of 3 rows succeeded'])
  })

  it('searches by name, template and input file', async () => {
    const runs = [
      runSummary({ runId: 'a', displayName: 'Spring catalogue', inputFilename: 'spring.xlsx' }),
      runSummary({ runId: 'b', displayName: 'Tickets', templateName: 'Support triage' }),
    ]
    await openRuns({ listRuns: async () => page(runs), watchRuns: async () => update(runs) })
    const search = byLabel(h!.container, 'Search runs by name, template or input file')
    await typeInto(search, 'spring.xlsx')
    expect(h!.text()).toContain('1 run shown')
    expect(h!.container.querySelector('tr[data-run-id="a"]')).not.toBeNull()
    expect(h!.container.querySelector('tr[data-run-id="b"]')).toBeNull()
    await typeInto(search, 'triage')
    expect(h!.container.querySelector('tr[data-run-id="b"]')).not.toBeNull()
    await typeInto(search, 'nothing like it')
    expect(h!.text()).toContain('No loaded run matches “nothing like it”.')
  })

  it(
    'keeps 10,000 runs in the list but puts only a window of them in the page',
    async () => {
      const runs = Array.from({ length: 10_000 }, (_, i) =>
        runSummary({ runId: `run-${i}`, createdAtUnix: 1_700_000_000 + i }),
      )
      await openRuns({ listRuns: async () => page(runs), watchRuns: async () => update([]) })
      expect(h!.stores.runs.getState().items).toHaveLength(10_000)
      const shown = h!.container.querySelectorAll('tbody tr').length
      expect(shown).toBeGreaterThan(5)
      expect(shown).toBeLessThan(60)
    },
    BIG_LIST_TIMEOUT_MS,
  )

  it('asks for older runs when the end of the list comes into view, not while searching', async () => {
    const tokens: (string | undefined)[] = []
    const first = Array.from({ length: 8 }, (_, i) =>
      runSummary({ runId: `new-${i}`, createdAtUnix: 1_700_000_100 - i }),
    )
    const older = [runSummary({ runId: 'old-1', createdAtUnix: 1_600_000_000 })]
    await openRuns({
      listRuns: async (args: { pageToken?: string }) => {
        tokens.push(args.pageToken)
        return args.pageToken ? page(older, '') : page(first, 'p2')
      },
      watchRuns: async () => update([]),
    })
    await h!.settle()
    expect(tokens).toEqual([undefined, 'p2'])
    expect(h!.container.querySelector('tr[data-run-id="old-1"]')).not.toBeNull()
  })

  it('opens a run from its name', async () => {
    await openRuns({ listRuns: async () => page(), watchRuns: async () => update() })
    await click(buttonNamed(h!.container, 'Run one'))
    expect(h!.stores.nav.getState().openRunId).toBe('run-1')
  })
})

function overview(over: Partial<RunOverview> = {}): RunOverview {
  const run = runSummary({
    status: 'succeeded',
    totalTasks: 3,
    completedTasks: 2,
    failedTasks: 1,
    actualCostT: 20,
    estimatedCostT: 30,
    completedAtUnix: 1_700_000_050,
  })
  return runOverview({
    detail: {
      run,
      market: undefined,
      tasks: [
        {
          taskId: 't1',
          status: 'succeeded',
          sourceRowIndex: 0,
          artifactCount: 1,
          errorMessage: '',
        },
        {
          taskId: 't2',
          status: 'failed',
          sourceRowIndex: 1,
          artifactCount: 0,
          errorMessage: 'The price is not a number.',
        },
        {
          taskId: 't3',
          status: 'succeeded',
          sourceRowIndex: 2,
          artifactCount: 1,
          errorMessage: '',
        },
      ],
      artifacts: [],
    },
    rowNumbers: [2, 3, 5],
    ...over,
  })
}

async function openDetail(verbs: Parameters<typeof render>[1]) {
  h = await render((stores) => {
    stores.nav.getState().openRun('run-1')
    return <RunsScreen env={env} />
  }, verbs)
  await h.settle()
  return h
}

describe('a run opened', () => {
  it('says it is loading the run', async () => {
    await openDetail({ getRunOverview: () => pending() })
    expect(h!.text()).toContain('Loading the run…')
  })

  it('says why the run cannot be shown, with a way to try again', async () => {
    await openDetail({
      getRunOverview: async () => {
        throw bridgeError('not-found', 'There is no run run-1 here.', 'Open it from the list.')
      },
    })
    expect(h!.container.querySelector('[role="alert"]')!.textContent).toContain(
      'There is no run run-1 here.',
    )
  })

  it('names the failed row by its spreadsheet row, with its error, first', async () => {
    await openDetail({ getRunOverview: async () => overview() })
    const rows = [...h!.container.querySelectorAll('.tasks-table tbody tr')]
    expect(rows[0]!.textContent).toContain('Row 3')
    expect(rows[0]!.textContent).toContain('The price is not a number.')
    expect(h!.text()).toContain('2 of 3 rows succeeded, 1 failed')
    expect(h!.text()).toContain('Actual cost20 credits')
    expect(h!.text()).toContain('Retry failed rows')
  })

  it('names rows by position for runs sent from elsewhere, and offers no retry', async () => {
    await openDetail({
      getRunOverview: async () => overview({ fromThisDevice: false, rowNumbers: null }),
    })
    expect(h!.container.querySelector('.tasks-table tbody tr')!.textContent).toContain(
      'Submitted row 2',
    )
    expect(h!.text()).toContain('Only runs submitted from this computer can be retried here')
  })

  it(
    'keeps a run of 10,000 rows to a window of rows in the page',
    async () => {
      const tasks = Array.from({ length: 10_000 }, (_, i) => ({
        taskId: `t${i}`,
        status: i % 100 === 0 ? 'failed' : 'succeeded',
        sourceRowIndex: i,
        artifactCount: 1,
        errorMessage: i % 100 === 0 ? 'Bad row' : '',
      }))
      const big = overview({ rowNumbers: null })
      big.detail.tasks = tasks
      await openDetail({ getRunOverview: async () => big })
      expect(h!.text()).toContain('10,000 rows, 100 failed')
      const shown = h!.container.querySelectorAll('.tasks-table tbody tr').length
      expect(shown).toBeGreaterThan(5)
      expect(shown).toBeLessThan(60)
    },
    BIG_LIST_TIMEOUT_MS,
  )

  it('asks before a retry and sends nothing until confirmed', async () => {
    let confirmed = 0
    await openDetail({
      getRunOverview: async () => overview(),
      planRetryFailed: async (): Promise<SubmissionPlanView> =>
        submissionPlan([3], { planId: 'plan-1', retryOfRunId: 'run-1' }),
      confirmSubmission: async () => {
        confirmed += 1
        return sentAs('run-2')
      },
    })
    // happy-dom has no modal dialogs: stand in for showModal.
    HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
      this.setAttribute('open', '')
    }
    await click(buttonNamed(h!.container, 'Retry failed rows'))
    await h!.settle()
    expect(confirmed).toBe(0)
    const send = buttonNamed(h!.container, /^Send for about 10 credits/)
    expect(send.disabled).toBe(true)
    await click(h!.container.querySelector('.confirm-agree input')!)
    expect(send.disabled).toBe(false)
    await click(send)
    await h!.settle()
    expect(confirmed).toBe(1)
    expect(h!.text()).toContain('Sent as a new run.')
    expect(h!.container.querySelector('[data-run-id="run-2"]')?.textContent).toBe('Open it')
  })
})

describe('an open run that is still going', () => {
  function active(completedTasks: number, updatedAtUnix: number): RunOverview {
    const o = overview()
    o.detail.run = runSummary({
      status: 'running',
      totalTasks: 3,
      completedTasks,
      failedTasks: 0,
      updatedAtUnix,
    })
    o.detail.tasks = o.detail.tasks.map((t, i) => ({
      ...t,
      status: i < completedTasks ? 'succeeded' : 'running',
      errorMessage: '',
    }))
    return o
  }
  const bar = () =>
    h!.container.querySelector('[role="progressbar"]')!.getAttribute('aria-valuenow')
  /** What the engine pushes for a watched run, as it reaches the open detail. */
  const pushDetail = (detail: RunOverview['detail']) =>
    act(async () =>
      h!.stores.runDetail.getState().applyDetailUpdate({ environment: 'Sandbox', detail }),
    )
  /** Opens the run's detail with the engine's follow verbs answering; `read` answers each read. */
  const openWatched = (read: () => Promise<RunOverview>) =>
    openDetail({ getRunOverview: read, watchRun: async () => null, unwatchRun: async () => null })

  it('asks the engine to watch it, shows what it pushes, and stops watching when closed', async () => {
    let reads = 0
    await openWatched(async () => {
      reads++
      return reads === 1 ? active(0, 10) : overview()
    })
    const calls = () => h!.calls.filter((c) => c.verb === 'watchRun' || c.verb === 'unwatchRun')
    expect(calls()).toEqual([
      { verb: 'watchRun', args: { environment: 'Sandbox', runId: 'run-1' } },
    ])
    expect(bar()).toBe('0')

    const pushed = active(2, 20)
    await pushDetail(pushed.detail)
    await h!.settle()
    expect(bar()).toBe('67')
    expect(reads).toBe(1)

    // An older update arriving late changes nothing.
    await pushDetail(active(1, 15).detail)
    // Another run's update is not this one's.
    const other = active(3, 30)
    other.detail.run = { ...other.detail.run, runId: 'run-9' }
    await pushDetail(other.detail)
    await h!.settle()
    expect(bar()).toBe('67')

    await act(async () => h!.stores.runDetail.getState().close())
    await h!.settle()
    expect(calls().at(-1)).toEqual({
      verb: 'unwatchRun',
      args: { environment: 'Sandbox', runId: 'run-1' },
    })
  })

  it('after the engine comes back, reads the run again and watches it anew, once', async () => {
    let reads = 0
    await openWatched(async () => {
      reads++
      return active(reads, 10 * reads)
    })
    await act(async () => h!.stores.runDetail.getState().reconnected())
    await h!.settle()
    expect(reads).toBe(2)
    expect(bar()).toBe('67')
    const watches = h!.calls
      .filter((c) => c.verb === 'watchRun' || c.verb === 'unwatchRun')
      .map((c) => c.verb)
    // Off then on again: a restarted engine watches it, the same engine counts one viewer.
    expect(watches).toEqual(['watchRun', 'unwatchRun', 'watchRun'])
  })

  it('shows the end when runEnded comes, then reads the finished run once more', async () => {
    let reads = 0
    await openWatched(async () => {
      reads++
      return reads === 1 ? active(1, 10) : overview()
    })
    expect(h!.text()).not.toContain('Retry failed rows')
    const ended = runSummary({
      status: 'failed',
      totalTasks: 3,
      completedTasks: 2,
      failedTasks: 1,
      updatedAtUnix: 40,
      completedAtUnix: 40,
    })
    await act(async () =>
      h!.stores.runDetail.getState().applyRunEnded({
        environment: 'Sandbox',
        unitLabel: 'credits',
        run: ended,
      }),
    )
    await h!.settle()
    expect(bar()).toBe('100')
    expect(h!.calls.some((c) => c.verb === 'unwatchRun')).toBe(true)
    await h!.settleUntil(() => reads === 2)
    expect(reads).toBe(2)
    expect(h!.text()).toContain('The price is not a number.')
    expect(h!.text()).toContain('Retry failed rows')
  })
})
