// @vitest-environment happy-dom
// The New run screen's states as a user sees them: loading, empty, error, offline, a checked
// workbook of 10,000 rows in the grid, a check under way with Cancel, and the confirmation.
// The Bridge here is a stand-in that answers like the engine (what crosses the wire is tested
// against the real engine in test/engine/prepare-bridge.test.ts and the e2e journey).
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest'
import {
  BridgeError,
  type BridgeApi,
  type CheckedRowsView,
  type SubmissionPlanView,
  type TemplateView,
  type WorkbookCheckView,
} from '../../src/shared/bridge'
import { plainField } from '../../src/shared/input-schema'
import { PrepareScreen } from '../../src/renderer/screens/PrepareScreen'
import { ConfirmSubmission } from '../../src/renderer/prepare/ConfirmSubmission'
import { StoresContext, type Stores } from '../../src/renderer/stores/context'
import { createStores } from '../../src/renderer/stores/create-stores'
import { layOutRegions, typeInto } from '../components/harness'
import { until } from '../helpers/wait'
import { environment, submissionPlan } from '../helpers/run-fixtures'
import { button, click, render, settle, text, type Rendered } from './render'

const env = environment({ name: 'Sandbox', builtIn: true })
const never = () => new Promise<never>(() => {})

function fakeApi(over: Partial<Record<keyof BridgeApi, unknown>> = {}): BridgeApi {
  const base: Record<string, unknown> = {
    on: () => () => {},
    listTemplates: async () => ({ environment: 'Sandbox', items: [], offline: false }),
    listPendingSubmissions: async () => ({ environment: 'Sandbox', items: [] }),
    checkConnection: never,
    cancelCheck: vi.fn(async () => null),
  }
  const all: Record<string, unknown> = { ...base, ...over }
  return new Proxy(all, {
    get(target, name: string) {
      if (name in target) return target[name]
      return async () => {
        throw new Error(`${name} is not part of this test`)
      }
    },
  }) as unknown as BridgeApi
}

function storesFor(api: BridgeApi): Stores {
  return createStores(
    { api, shell: 'browser', pathForFile: () => '', onConnectionChange: () => () => {} },
    {
      toFileRef: async (file) => ({ kind: 'bytes', name: file.name, base64: '' }),
      download: () => {},
      newId: () => 'check-0001',
    },
  )
}

let view: Rendered | null = null
afterEach(async () => {
  await view?.unmount()
  view = null
})

async function show(api: BridgeApi) {
  // The grid is a virtual table: without a laid-out scroll area it would draw no rows at all.
  layOutRegions()
  const stores = storesFor(api)
  view = await render(
    <StoresContext.Provider value={stores}>
      <PrepareScreen env={env} />
    </StoresContext.Provider>,
  )
  return { stores, container: view.container }
}

const echo: TemplateView = {
  environment: 'Sandbox',
  templateId: 'row-echo',
  name: 'Row echo',
  description: 'Sends each row back.',
  version: '1.0.0',
  instructions: [],
  columns: [
    { fieldKey: 'message', headerLabel: 'Message', order: 0 },
    { fieldKey: 'sequence', headerLabel: 'Sequence number', order: 1 },
  ],
  fields: [
    plainField('message', 'Message', 'string', { required: true, examples: ['Hello'] }),
    plainField('sequence', 'Sequence number', 'integer', { inputHint: 'Any whole number.' }),
  ],
  fetchedAtMs: Date.now(),
  fromCache: false,
  callbackUrl: '',
}

function bigCheck(rows: number): WorkbookCheckView {
  return {
    checkId: 'check-0001',
    environment: 'Sandbox',
    fileName: 'big.xlsx',
    sizeBytes: 1_234_567,
    target: { kind: 'template', templateId: 'row-echo', name: 'Row echo' },
    targetFromWorkbook: true,
    valid: false,
    fileErrors: [],
    problems: [
      {
        message: 'Row 3, Sequence number: “x” is not a whole number',
        fieldKey: 'sequence',
        rowNumber: 3,
        column: 2,
        rowPosition: 1,
      },
      {
        message: 'Row 9002, Sequence number: “x” is not a whole number',
        fieldKey: 'sequence',
        rowNumber: 9002,
        column: 2,
        rowPosition: 9000,
      },
    ],
    rowCount: rows,
    columns: [
      { letter: 'A', header: 'Message *', fieldKey: 'message', label: 'Message', type: 'string' },
      {
        letter: 'B',
        header: 'Sequence number',
        fieldKey: 'sequence',
        label: 'Sequence number',
        type: 'integer',
      },
    ],
    runFields: [],
    fileCells: [],
    schemaFromCache: false,
    checkedAtMs: Date.now(),
  }
}

function pageOf(offset: number, limit: number, total: number): CheckedRowsView {
  const rows: CheckedRowsView['rows'] = []
  for (let i = offset; i < Math.min(total, offset + limit); i += 1)
    rows.push({
      rowNumber: i + 2,
      cells: [`message ${i + 1}`, i === 1 || i === 9000 ? 'x' : String(i + 1)],
      badColumns: i === 1 || i === 9000 ? [2] : [],
    })
  return { checkId: 'check-0001', offset, total, rows }
}

/** The screen with a checked workbook of `rows` rows in its grid, paged from a stand-in. */
async function showChecked(rows: number) {
  const getCheckedRows = vi.fn(async (args: { offset: number; limit: number }) =>
    pageOf(args.offset, args.limit, rows),
  )
  const shown = await show(fakeApi({ getCheckedRows, getTemplate: async () => echo }))
  shown.stores.prepare.setState({
    file: new File(['x'], 'big.xlsx'),
    checkState: 'done',
    check: bigCheck(rows),
  })
  // Its first page of rows comes from the stand-in; a loaded machine may take more than a few turns.
  const drawn = '[data-testid="rows-grid"] tr[data-row-position] td[data-column]'
  await until(async () => (await settle(1), shown.container.querySelector(drawn) !== null))
  return { ...shown, getCheckedRows }
}

describe('the New run screen', () => {
  it('loading: says it is looking for templates', async () => {
    const { container } = await show(fakeApi({ listTemplates: never }))
    expect(text(container)).toContain('Looking for templates…')
    expect(text(container)).toContain('Choose a template or a listing first')
  })

  it('empty: no template known here, and how to name one', async () => {
    const { container } = await show(fakeApi())
    expect(text(container)).toContain(
      'No template is saved on this computer for this environment yet',
    )
    expect(container.querySelector('input[placeholder^="e.g."]')).not.toBeNull()
    expect(button(container, 'Use this template')?.disabled).toBe(true)
    expect(button(container, /Review the cost and send/)?.disabled).toBe(true)
  })

  it('error: says what happened and offers to try again', async () => {
    const listTemplates = vi.fn(async () => {
      throw new BridgeError({
        code: 'unauthorized',
        message: 'The service did not accept the API token.',
        nextStep: 'Set a valid token for this environment.',
      })
    })
    const { container } = await show(fakeApi({ listTemplates }))
    expect(text(container)).toContain('The service did not accept the API token.')
    await click(button(container, 'Try again'))
    expect(listTemplates).toHaveBeenCalledTimes(2)
  })

  it('offline: the saved templates and the saved form with its age; sending needs the service', async () => {
    const threeHoursAgo = Date.now() - 3 * 3600_000
    const { container, stores } = await show(
      fakeApi({
        listTemplates: async () => ({
          environment: 'Sandbox',
          offline: true,
          items: [
            {
              templateId: 'row-echo',
              name: 'Row echo',
              description: 'Sends each row back.',
              source: 'cached',
              fetchedAtMs: threeHoursAgo,
            },
          ],
        }),
        getTemplate: async () => ({ ...echo, fromCache: true, fetchedAtMs: threeHoursAgo }),
      }),
    )
    expect(text(container)).toContain('The service cannot be reached')
    expect(text(container)).toContain('saved 3 hours ago')
    const radio = container.querySelector<HTMLInputElement>('input[value="row-echo"]')!
    await click(radio)
    expect(text(container)).toContain(
      'Offline: this is the copy saved on this computer 3 hours ago',
    )
    expect(text(container)).toContain('Whole number')
    stores.prepare.setState({
      file: new File(['x'], 'rows.xlsx'),
      checkState: 'done',
      check: { ...bigCheck(3), valid: true, problems: [], schemaFromCache: true },
    })
    await settle()
    expect(text(container)).toContain('Sending needs the service')
  })

  it('10,000 rows: a virtual grid that renders a screenful, with the bad cell marked after a jump', async () => {
    // happy-dom lays nothing out: give the grid's scroll area the size a window would, until
    // the test ends (the next test file may share this window).
    for (const [name, size] of [
      ['clientHeight', 420],
      ['clientWidth', 900],
    ] as const) {
      const before = Object.getOwnPropertyDescriptor(HTMLElement.prototype, name)
      Object.defineProperty(HTMLElement.prototype, name, {
        configurable: true,
        get(this: HTMLElement) {
          return this.classList.contains('grid-scroll') ? size : 0
        },
      })
      onTestFinished(() => {
        if (before) Object.defineProperty(HTMLElement.prototype, name, before)
        else Reflect.deleteProperty(HTMLElement.prototype, name)
      })
    }
    const { container, stores, getCheckedRows } = await showChecked(10_000)
    const grid = container.querySelector('[data-testid="rows-grid"]')!
    expect(grid.querySelector('table')?.getAttribute('aria-rowcount')).toBe('10001')
    const rendered = grid.querySelectorAll('tbody tr').length
    expect(rendered).toBeGreaterThan(5)
    expect(rendered).toBeLessThan(80)
    expect(text(grid as HTMLElement)).toContain('message 1')
    // Only the pages in view were asked for.
    expect(getCheckedRows.mock.calls.every(([a]) => a.offset < 400)).toBe(true)
    expect(text(container)).toContain('10,000 rows, 2 problems to fix in the workbook.')

    // The first screenful marks its bad cell; the error far below jumps to its row.
    expect(grid.querySelector('tr[data-row-position="1"] td.cell-bad')?.textContent).toBe('x')
    await click(button(container, /Row 9002, Sequence number/))
    expect(stores.prepare.getState().focus).toMatchObject({ rowPosition: 9000, column: 2 })
  })

  it('arrow keys move the focus from cell to cell of the grid, as in a spreadsheet', async () => {
    const { container } = await showChecked(3)
    const grid = container.querySelector<HTMLElement>('[data-testid="rows-grid"]')!
    const press = async (key: string) => {
      const on = (document.activeElement as HTMLElement | null) ?? grid
      on.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }))
      await settle()
    }
    const focused = () => {
      const cell = document.activeElement as HTMLElement
      const row = cell.closest('tr')?.getAttribute('data-row-position')
      return `${row}:${cell.tagName === 'TH' ? 0 : cell.getAttribute('data-column')}`
    }
    grid.focus()
    // Each key, and the cell ("row:column", 0 the row's number) that has the focus after it.
    const steps: [string, string][] = [
      ['ArrowDown', '0:1'],
      ['ArrowRight', '0:2'],
      ['ArrowRight', '0:2'],
      ['ArrowDown', '1:2'],
      ['ArrowDown', '2:2'],
      ['ArrowDown', '2:2'],
      ['Home', '2:0'],
      ['ArrowUp', '1:0'],
      ['End', '1:2'],
      ['PageDown', '2:2'],
    ]
    for (const [key, cell] of steps) {
      await press(key)
      expect(`${key} → ${focused()}`).toBe(`${key} → ${cell}`)
    }
    expect(document.activeElement?.textContent).toBe('3')
  })

  it('a send not answered yet (even from before a restart) shows as sending until it is', async () => {
    const { container, stores } = await show(
      fakeApi({
        listPendingSubmissions: async () => ({
          environment: 'Sandbox',
          items: [
            {
              environment: 'Sandbox',
              clientRequestId: 'c-1',
              state: 'sent',
              target: { kind: 'template', templateId: 'row-echo', name: 'Row echo' },
              fileName: 'rows.xlsx',
              rowCount: 3,
              createdAtMs: Date.now() - 60_000,
              updatedAtMs: Date.now() - 30_000,
              error: '',
            },
          ],
        }),
      }),
    )
    expect(text(container)).toContain(
      'Sending “rows.xlsx” (3 rows) to Row echo… waiting for the service to answer',
    )
    stores.prepare.getState().applySubmissionUpdate({
      environment: 'Sandbox',
      clientRequestId: 'c-1',
      state: 'accepted',
      runId: 'run_1',
      error: '',
    })
    await settle()
    expect(text(container)).not.toContain('waiting for the service to answer')
  })

  it('file cells in a browser: asks for the folder, uploads its files, and plans with them', async () => {
    const planSubmission = vi.fn(async () => plan())
    const api = fakeApi({
      getTemplate: async () => echo,
      uploadFiles: async () => ({
        environment: 'Sandbox',
        assets: [{ name: 'shoot/a.png', inputAssetId: 'asset-a', sizeBytes: 1, reused: false }],
      }),
      planSubmission,
    })
    const { container, stores } = await show(api)
    stores.prepare.setState({
      environment: 'Sandbox',
      file: new File(['x'], 'photos.xlsx'),
      checkState: 'done',
      check: {
        ...bigCheck(2),
        valid: true,
        problems: [],
        fileCells: [
          { value: 'shoot/a.png', rowNumber: 2, fieldKey: 'photo', state: 'unchecked' },
          { value: 'shoot/b.png', rowNumber: 3, fieldKey: 'photo', state: 'unchecked' },
        ],
      },
    })
    await settle()
    expect(text(container)).toContain('0 found · 0 not found · 2 not looked for yet')
    expect(text(container)).toContain('drop the folder that holds these files')
    expect(text(container)).toContain('Upload the files before you send')
    expect(text(container)).not.toContain('desktop app')
    stores.prepare.getState().addFolder(new Map([['shoot/a.png', new File(['a'], 'a.png')]]))
    await settle()
    expect(text(container)).toContain('1 found · 1 not found')
    await click(button(container, 'Upload the files'))
    await settle()
    expect(text(container)).toContain('Uploaded')
    await stores.prepare.getState().planSend()
    // Only the uploaded file goes with the workbook; the engine reports the other as a row error.
    expect(planSubmission).toHaveBeenCalledWith(
      expect.objectContaining({
        fileAssets: [{ path: 'shoot/a.png', inputAssetId: 'asset-a' }],
      }),
    )
  })

  it('another template takes the old workbook off (rows, name, verdict) and says to drop it again', async () => {
    const checkWorkbook = vi.fn(async () => ({ ...bigCheck(3), targetFromWorkbook: false }))
    const api = fakeApi({
      checkWorkbook,
      getTemplate: async () => echo,
      getCheckedRows: async ({ offset, limit }: { offset: number; limit: number }) =>
        pageOf(offset, limit, 3),
    })
    const { container, stores } = await show(api)
    await stores.prepare.getState().chooseTemplate('row-echo')
    await stores.prepare.getState().takeFile(new File(['x'], 'rows.xlsx'))
    await settle()
    expect(text(container)).toContain('3 rows, 2 problems to fix')
    await stores.prepare.getState().chooseTemplate('doc-digest')
    await settle()
    expect(checkWorkbook).toHaveBeenCalledTimes(1)
    expect(text(container)).not.toContain('3 rows, 2 problems to fix')
    expect(container.querySelector('[data-testid="rows-grid"]')).toBeNull()
    expect(text(container)).toContain('Drop a filled workbook here')
    expect(text(container)).toContain('“rows.xlsx” was filled for your earlier choice')
    // Dropped again, it is checked against the new one and the note goes.
    await stores.prepare.getState().takeFile(new File(['x'], 'rows.xlsx'))
    await settle()
    expect(checkWorkbook).toHaveBeenLastCalledWith(
      expect.objectContaining({ target: { kind: 'template', templateId: 'doc-digest' } }),
    )
    expect(text(container)).not.toContain('was filled for your earlier choice')
  })

  it('a workbook dropped before anything is chosen is checked once a template is', async () => {
    const checkWorkbook = vi.fn(async () => ({ ...bigCheck(3), targetFromWorkbook: false }))
    const api = fakeApi({ checkWorkbook, getTemplate: async () => echo })
    const { stores } = await show(api)
    await stores.prepare.getState().takeFile(new File(['x'], 'rows.xlsx'))
    await stores.prepare.getState().chooseTemplate('row-echo')
    await settle()
    expect(checkWorkbook).toHaveBeenCalledTimes(2)
    expect(stores.prepare.getState().file?.name).toBe('rows.xlsx')
  })

  it('a check under way shows its progress and stops on Cancel', async () => {
    const api = fakeApi({ checkWorkbook: never, getTemplate: async () => echo })
    const { container, stores } = await show(api)
    await stores.prepare.getState().chooseTemplate('row-echo')
    void stores.prepare.getState().takeFile(new File(['x'], 'rows.xlsx'))
    await settle()
    stores.prepare.getState().applyProgress({ checkId: 'check-0001', rowsRead: 4000 })
    await settle()
    expect(text(container)).toContain('Checking “rows.xlsx”… 4,000 rows read')
    await click(button(container, 'Cancel'))
    expect(api.cancelCheck).toHaveBeenCalledWith({ checkId: 'check-0001' })
    expect(text(container)).not.toContain('Checking “rows.xlsx”')
    expect(text(container)).toContain('Drop a filled workbook here')
  })
})

function plan(over: Partial<SubmissionPlanView> = {}): SubmissionPlanView {
  return submissionPlan([2, 3, 4], {
    planId: 'plan-1',
    environment: 'Market',
    target: { kind: 'listing', listingId: 'ad-copy', listingVersionId: 'v3', name: 'Ad copy' },
    fileName: 'ads.xlsx',
    taskFixedFeeT: 4,
    estimateT: 12,
    terms: 'flat-task-fee-1',
    schemaSource: 'market',
    ...over,
  })
}

describe('the confirmation', () => {
  async function confirmation(p: SubmissionPlanView, sending = false) {
    const onConfirm = vi.fn()
    view = await render(
      <ConfirmSubmission
        plan={p}
        sending={sending}
        error={null}
        onConfirm={onConfirm}
        onCancel={() => {}}
        onOpenRun={() => {}}
      />,
    )
    return { container: document.body, onConfirm }
  }

  it('shows rows x fee and the terms, and sends only after the explicit agreement', async () => {
    const { container, onConfirm } = await confirmation(plan())
    expect(text(container)).toContain('About 12 credits: 3 rows at 4 credits per row')
    expect(text(container)).toContain('Source: the service’s estimate (the listing’s fee per row)')
    expect(text(container)).toContain('pricing terms “flat-task-fee-1”')
    const send = button(container, 'Send for about 12 credits')!
    expect(send.disabled).toBe(true)
    await click(container.querySelector('.confirm-agree input'))
    expect(send.disabled).toBe(false)
    await click(send)
    expect(onConfirm).toHaveBeenCalledWith({})
  })

  it('an unknown fee says so and suggests a pilot', async () => {
    const { container } = await confirmation(
      plan({ taskFixedFeeT: null, estimateT: null, estimateSource: 'none' }),
    )
    expect(text(container)).toContain('Unknown before the run')
    expect(text(container)).toContain('Source: unknown.')
    expect(text(container)).toContain('send a pilot of a few rows first')
  })

  it('the same rows already accepted need a second yes', async () => {
    const { container, onConfirm } = await confirmation(
      plan({
        confirmRequired: false,
        duplicateOf: { runId: 'run_1', clientRequestId: 'c1', acceptedAtMs: Date.now() },
      }),
    )
    expect(text(container)).toContain('You already sent these same rows here')
    const send = button(container, 'Send for about 12 credits')!
    expect(send.disabled).toBe(true)
    await click(
      [...container.querySelectorAll('label')]
        .find((l) => l.textContent?.includes('Send them again'))
        ?.querySelector('input'),
    )
    // Every paid send needs the one agreement too, the second yes does not stand for it.
    expect(send.disabled).toBe(true)
    await click(container.querySelector('.confirm-agree input'))
    await click(send)
    expect(onConfirm).toHaveBeenCalledWith({ again: true })
  })

  it('a template send asks like a listing: cost and its source, the cap, the agreement', async () => {
    const { container, onConfirm } = await confirmation(
      plan({
        target: { kind: 'template', templateId: 'row-echo', name: 'Row echo' },
        taskFixedFeeT: null,
        estimateT: 3,
        estimateSource: 'pilot',
        learnedFrom: { runId: 'run_9', rows: 1, actualCostT: 1, costPerRowT: 1 },
        terms: '',
        schemaSource: 'template',
        confirmRequired: false,
      }),
    )
    expect(text(container)).toContain('About 3 credits: 3 rows at 1 credit per row')
    expect(text(container)).toContain('Source: the last run’s cost per row')
    // The earlier run's ID stays at hand for support, under Details.
    expect(text(container)).toContain('Learned from run run_9')
    const send = button(container, 'Send for about 3 credits')!
    expect(send.disabled).toBe(true)
    const agree = container.querySelector<HTMLInputElement>('.confirm-agree input')!
    expect(agree.parentElement?.textContent).toContain('I agree to pay about 3 credits')
    await click(agree)
    expect(send.disabled).toBe(false)
    // A cap changes what is agreed to, so it asks again, naming the cap.
    await typeInto(container.querySelector<HTMLInputElement>('.confirm-cap input')!, '4')
    expect(send.disabled).toBe(true)
    expect(container.querySelector('.confirm-agree')?.textContent).toContain(
      'I agree to pay up to 4 credits for this run.',
    )
    await click(container.querySelector('.confirm-agree input'))
    await click(send)
    expect(onConfirm).toHaveBeenCalledWith({ maxCostT: 4 })
  })

  it('while sending it cannot be sent twice and says it waits for the service', async () => {
    const { container } = await confirmation(plan(), true)
    expect(text(container)).toContain('Sending… waiting for the service to answer')
    expect(button(container, 'Sending…')?.disabled).toBe(true)
    expect(button(container, 'Cancel')?.disabled).toBe(true)
  })
})
