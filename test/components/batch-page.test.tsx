// @vitest-environment happy-dom
// The batch page (a buyer's sheet across its runs) and what links to it: rows asked a page at a
// time and only a window of them drawn, filters, rows chosen with a shift-click range and sent
// through the usual confirmation (rows paid before go again only when the buyer says so), the
// run's page naming its sheet, Retry failed rows with nothing left, and History's batch groups.
import { act } from 'react'
import { describe, expect, it } from 'vitest'
import { RunsScreen } from '../../src/renderer/screens/RunsScreen'
import { HistoryScreen } from '../../src/renderer/screens/HistoryScreen'
import type {
  BatchRowView,
  BatchRowsView,
  BatchView,
  SubmissionPlanView,
} from '../../src/shared/bridge'
import { environment, runOverview, runSummary, sentAs, submissionPlan } from '../helpers/run-fixtures'
import { historyEntry } from './history-fixtures'
import { buttonNamed, click, render, type FakeVerbs, type Harness } from './harness'

const env = environment({ name: 'Sandbox' })

function batchView(over: Partial<BatchView> = {}): BatchView {
  return {
    environment: 'Sandbox',
    batchId: 'b1',
    targetKind: 'template',
    targetId: 'row-echo',
    targetName: 'Row echo',
    fileName: 'products.xlsx',
    sheet: '',
    workbookSha256: 'f'.repeat(64),
    counts: {
      rows: 20,
      notSent: 15,
      setAside: 2,
      pending: 0,
      succeeded: 3,
      failed: 0,
      sentAgain: 1,
    },
    runs: [{ runId: 'run-1', kind: 'pilot', rows: 3, sentAtMs: 1 }],
    summary: '20 rows: 3 succeeded, 2 set aside to fix, 15 not sent yet',
    stale: false,
    ...over,
  }
}

/** Sheet rows 2..n+1: the first three succeeded in the pilot (row 3 twice), two set aside. */
function sheetRow(index: number): BatchRowView {
  const sheetRow = index + 2
  if (index < 3)
    return {
      sheetRow,
      state: 'succeeded',
      sends: index === 1 ? 2 : 1,
      runId: 'run-1',
      keptRunId: 'run-1',
      problems: [],
      preview: `Echo of row ${sheetRow}`,
    }
  if (index === 5 || index === 9)
    return {
      sheetRow,
      state: 'set-aside',
      sends: 0,
      runId: '',
      keptRunId: '',
      problems: ['Price is not a number.'],
      preview: '',
    }
  return {
    sheetRow,
    state: 'not-sent',
    sends: 0,
    runId: '',
    keptRunId: '',
    problems: [],
    preview: '',
  }
}

function rowsAnswer(total: number, sent: ReadonlySet<number> = new Set()) {
  return async (args: { from: number; count: number; filter?: string }): Promise<BatchRowsView> => {
    const rows: BatchRowView[] = []
    for (let i = args.from; i < Math.min(total, args.from + args.count); i++) {
      const row = sheetRow(i)
      rows.push(
        sent.has(row.sheetRow)
          ? { ...row, state: 'pending', sends: row.sends + 1, runId: 'run-2' }
          : row,
      )
    }
    return {
      environment: 'Sandbox',
      batchId: 'b1',
      filter: (args.filter ?? 'all') as BatchRowsView['filter'],
      total,
      from: args.from,
      rows,
    }
  }
}

function plan(rows: number[], over: Partial<SubmissionPlanView> = {}): SubmissionPlanView {
  return submissionPlan(rows, {
    target: { kind: 'template', templateId: 'row-echo', name: 'Row echo' },
    fileName: 'products.xlsx',
    totalRows: 20,
    taskFixedFeeT: 1,
    estimateT: rows.length,
    batchId: 'b1',
    sendKind: 'chosen',
    ...over,
  })
}

// happy-dom has no modal dialogs: stand in for showModal.
HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
  this.setAttribute('open', '')
}

async function openBatch(verbs: FakeVerbs): Promise<Harness> {
  const h = await render((stores) => {
    stores.nav.getState().openBatch('run-1')
    return <RunsScreen env={env} />
  }, verbs)
  await h.settle()
  await h.settle()
  return h
}

const shownRows = (h: Harness) => [
  ...h.container.querySelectorAll('.batch-table tbody tr[data-sheet-row]'),
]

describe('the batch page', () => {
  it('shows the summary, the counts and each row’s state, output and run, a window at a time', async () => {
    const h = await openBatch({
      getBatch: async () => batchView({ counts: { ...batchView().counts, rows: 100_000 } }),
      getBatchRows: rowsAnswer(100_000) as never,
    })
    expect(h.container.querySelector('h2')!.textContent).toBe('products.xlsx')
    expect(h.text()).toContain('20 rows: 3 succeeded, 2 set aside to fix, 15 not sent yet')
    const rows = shownRows(h)
    // Only the rows in view (and a few more) are in the page, and only their pages were asked.
    expect(rows.length).toBeGreaterThan(5)
    expect(rows.length).toBeLessThan(40)
    const asked = h.calls.filter((c) => c.verb === 'getBatchRows')
    expect(asked.length).toBeLessThanOrEqual(2)
    const row3 = h.container.querySelector('tr[data-sheet-row="3"]')!
    expect(row3.textContent).toContain('Succeeded')
    expect(row3.textContent).toContain('Sent again')
    expect(row3.textContent).toContain('Echo of row 3')
    expect(row3.querySelector('[data-run-id="run-1"]')!.textContent).toBe('Pilot')
    const row7 = h.container.querySelector('tr[data-sheet-row="7"]')!
    expect(row7.textContent).toContain('Set aside')
    expect(row7.textContent).toContain('Price is not a number.')
    expect(h.container.querySelector('tr[data-sheet-row="5"]')!.textContent).toContain('Not sent')
  })

  it('asks the rows of the filter chosen', async () => {
    const h = await openBatch({
      getBatch: async () => batchView(),
      getBatchRows: rowsAnswer(20) as never,
    })
    const select = h.container.querySelector('select')!
    expect([...select.options].map((o) => o.textContent)).toContain('Failed (0)')
    select.value = 'set-aside'
    select.dispatchEvent(new Event('change', { bubbles: true }))
    await h.settle()
    const last = h.calls.filter((c) => c.verb === 'getBatchRows').at(-1)!
    expect(last.args).toMatchObject({ filter: 'set-aside', from: 0 })
  })

  it('sends chosen rows (a shift-click range) only once confirmed, rows paid before only when asked', async () => {
    const sent = new Set<number>()
    const planned: number[][] = []
    const confirmed: unknown[] = []
    const h = await openBatch({
      getBatch: async () => batchView(),
      getBatchRows: ((args: never) => rowsAnswer(20, sent)(args)) as never,
      planBatchRows: (async (args: { rows: number[] }) => {
        planned.push(args.rows)
        const paid = args.rows.filter((r) => r <= 4)
        return plan(args.rows, {
          paidBefore: paid.length
            ? {
                rows: paid.length,
                sheetRows: paid,
                runIds: ['run-1'],
                words: `${paid.length} of these ${args.rows.length} rows were sent in the pilot and succeeded: they would be paid again.`,
              }
            : null,
        })
      }) as never,
      confirmSubmission: (async (args: unknown) => {
        confirmed.push(args)
        for (const r of planned.at(-1)!) sent.add(r)
        return sentAs('run-2')
      }) as never,
    })
    const box = (row: number) =>
      h.container.querySelector<HTMLInputElement>(
        `tr[data-sheet-row="${row}"] input[type="checkbox"]`,
      )!
    await click(box(4))
    // Shift-click: every row from the last one clicked.
    await act(async () => {
      box(6).dispatchEvent(new MouseEvent('click', { bubbles: true, shiftKey: true }))
    })
    expect(h.text()).toContain('3 rows chosen')
    await click(buttonNamed(h.container, 'Send 3 chosen rows…'))
    await h.settle()
    expect(planned).toEqual([[4, 5, 6]])
    expect(h.container.querySelector('[data-testid="paid-before"]')!.textContent).toContain(
      '1 of these 3 rows were sent in the pilot and succeeded',
    )
    await click(h.container.querySelector('.confirm-agree input')!)
    const send = buttonNamed(h.container, /^Send for about 3 credits/)
    expect(send.disabled).toBe(true)
    // Or only the rows not sent yet: planned again without the paid one.
    await click(buttonNamed(h.container, 'Send only the 2 rows not sent yet'))
    await h.settle()
    expect(planned.at(-1)).toEqual([5, 6])
    expect(h.container.querySelector('[data-testid="paid-before"]')).toBeNull()
    await click(h.container.querySelector('.confirm-agree input')!)
    await click(buttonNamed(h.container, /^Send for about 2 credits/))
    await h.settle()
    await h.settle()
    expect(confirmed).toHaveLength(1)
    expect(confirmed[0]).not.toHaveProperty('again')
    expect(h.text()).toContain('Sent as a new run.')
    // The page shows the new run's rows running, without a reload.
    expect(h.container.querySelector('tr[data-sheet-row="5"]')!.getAttribute('data-state')).toBe(
      'pending',
    )
    expect(h.text()).toContain('Choose rows to send')
  })

  it('confirms rows paid before with again: true once the buyer chooses to pay again', async () => {
    const confirmed: unknown[] = []
    const h = await openBatch({
      getBatch: async () => batchView(),
      getBatchRows: rowsAnswer(20) as never,
      planBatchRows: (async (args: { rows: number[] }) =>
        plan(args.rows, {
          sendKind: 'redo',
          paidBefore: {
            rows: 1,
            sheetRows: [2],
            runIds: ['run-1'],
            words: '1 of these 1 rows was sent in the pilot and succeeded: it would be paid again.',
          },
        })) as never,
      confirmSubmission: (async (args: unknown) => {
        confirmed.push(args)
        return sentAs('run-2')
      }) as never,
    })
    await click(h.container.querySelector('tr[data-sheet-row="2"] input[type="checkbox"]')!)
    await click(buttonNamed(h.container, 'Send 1 chosen row…'))
    await h.settle()
    expect(() => buttonNamed(h.container, /not sent yet/)).toThrow()
    await click(h.container.querySelector('.confirm-agree input')!)
    const send = buttonNamed(h.container, /^Send for about 1 credit/)
    expect(send.disabled).toBe(true)
    await click(
      [...h.container.querySelectorAll('label')]
        .find((l) => l.textContent === 'Send these rows again (pay again)')!
        .querySelector('input')!,
    )
    expect(send.disabled).toBe(false)
    await click(send)
    await h.settle()
    expect(confirmed[0]).toMatchObject({ again: true, confirmed: true })
  })

  it('says so when the run was not sent from a sheet here', async () => {
    const h = await openBatch({ getBatch: async () => null })
    expect(h.text()).toContain('not sent from a sheet on this computer')
  })
})

describe('a run of a batch', () => {
  function failedOnce() {
    return runOverview({
      batchId: 'b1',
      inputFilename: 'products.xlsx',
      rowNumbers: [2, 3, 4],
      detail: {
        run: runSummary({
          runId: 'run-1',
          status: 'succeeded',
          totalTasks: 3,
          completedTasks: 2,
          failedTasks: 1,
          completedAtUnix: 1_700_000_050,
        }),
        market: undefined,
        tasks: [
          {
            taskId: 't1',
            status: 'succeeded',
            sourceRowIndex: 0,
            artifactCount: 0,
            errorMessage: '',
          },
          {
            taskId: 't2',
            status: 'failed',
            sourceRowIndex: 1,
            artifactCount: 0,
            errorMessage: 'Bad price.',
          },
          {
            taskId: 't3',
            status: 'succeeded',
            sourceRowIndex: 2,
            artifactCount: 0,
            errorMessage: '',
          },
        ],
        artifacts: [],
      },
    })
  }
  async function openRun(failedRows: number[]) {
    const h = await render(
      (stores) => {
        stores.nav.getState().openRun('run-1')
        return <RunsScreen env={env} />
      },
      {
        getRunOverview: async () => failedOnce(),
        getBatch: async () =>
          batchView({
            summary: '3 rows: 2 succeeded, 1 failed, then was sent again and succeeded',
          }),
        getBatchRows: (async (args: { filter?: string }) => ({
          environment: 'Sandbox',
          batchId: 'b1',
          filter: args.filter ?? 'all',
          total: failedRows.length,
          from: 0,
          rows: failedRows.map((n) => ({ ...sheetRow(0), sheetRow: n, state: 'failed' })),
        })) as never,
      },
    )
    await h.settle()
    await h.settle()
    return h
  }

  it('names its sheet with the batch’s summary and opens the batch page', async () => {
    const h = await openRun([])
    const link = h.container.querySelector('.batch-link')!
    expect(link.textContent).toBe(
      'Part of products.xlsx — 3 rows: 2 succeeded, 1 failed, then was sent again and succeeded',
    )
    await click(link.querySelector('button')!)
    expect(h.stores.nav.getState().openBatchOf).toBe('run-1')
  })

  it('offers no retry once its failed row was sent again and succeeded', async () => {
    const h = await openRun([])
    expect(() => buttonNamed(h.container, 'Retry failed rows')).toThrow()
    expect(h.container.querySelector('[data-testid="nothing-to-retry"]')!.textContent).toContain(
      'nothing is left to retry',
    )
  })

  it('offers the retry while its failed row is still failed', async () => {
    const h = await openRun([3])
    expect(buttonNamed(h.container, 'Retry failed rows')).toBeTruthy()
  })
})

describe('History by batch', () => {
  it('lists a batch’s runs together under its sheet and summary, each named by how it was sent', async () => {
    const items = [
      historyEntry({
        id: 3,
        runId: 'run-3',
        batchId: 'b1',
        sendKind: 'redo',
        inputFilename: 'products.xlsx',
        createdAtMs: 3000,
      }),
      historyEntry({ id: 2, runId: 'run-x', inputFilename: 'other.xlsx', createdAtMs: 2000 }),
      historyEntry({
        id: 1,
        runId: 'run-1',
        batchId: 'b1',
        sendKind: 'pilot',
        inputFilename: 'products.xlsx',
        createdAtMs: 1000,
      }),
    ]
    const h = await render(() => <HistoryScreen env={env} />, {
      listHistory: async () => ({ items, more: false }),
      getBatch: async () => batchView(),
    })
    await h.settle()
    const rows = [...h.container.querySelectorAll('.history-table tbody tr')]
    expect(
      rows.map((r) => r.getAttribute('data-batch-head') ?? r.getAttribute('data-run-id')),
    ).toEqual(['b1', 'run-1', 'run-3', 'run-x'])
    expect(rows[0]!.textContent).toContain('products.xlsx')
    expect(rows[0]!.textContent).toContain('20 rows: 3 succeeded')
    expect(rows[1]!.querySelector('.history-what')!.textContent).toContain('pilot')
    expect(rows[2]!.querySelector('.history-what')!.textContent).toContain('redo of chosen rows')
    expect(rows[2]!.textContent).not.toContain('retry')
    await click(buttonNamed(rows[0] as HTMLElement, 'Open the sheet'))
    expect(h.stores.nav.getState()).toMatchObject({ screen: 'runs', openBatchOf: 'run-3' })
  })
})
