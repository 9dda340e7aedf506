// Typed with the window's types (tsconfig.web.json): it builds the stores the window has.
// The New run store's draft: restored on open (the target chosen again, the workbook checked
// again with the confirmed mapping, the choices back), a sent draft shown as its run with nothing
// to send, a choice the user makes while the draft is asked for winning over it, and the screen
// kept as the user goes (no save of an empty screen over a draft not looked at yet).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type {
  BridgeApi,
  PrepareDraft,
  PrepareDraftView,
  WorkbookCheckView,
} from '../../src/shared/bridge'
import { createStores } from '../../src/renderer/stores/create-stores'

const draft: PrepareDraft = {
  step: 'send',
  target: { kind: 'template', templateId: 'row-echo' },
  sheet: 'Orders',
  mapping: { Text: 'message', Notes: null },
  runValues: { tone: 'friendly' },
  pilot: { on: true, rows: 2 },
  sent: null,
}

function checkView(checkId: string): WorkbookCheckView {
  return {
    checkId,
    environment: 'Sandbox',
    fileName: 'orders.csv',
    sizeBytes: 12,
    target: { kind: 'template', templateId: 'row-echo', name: 'Row echo' },
    targetFromWorkbook: false,
    valid: true,
    fileErrors: [],
    problems: [],
    rowCount: 2,
    columns: [],
    runFields: [],
    fileCells: [],
    schemaFromCache: false,
    checkedAtMs: 1,
  } as unknown as WorkbookCheckView
}

/** Stores over a Bridge whose draft answers when the test says, recording what is asked. */
function storesWith(found: PrepareDraftView | null) {
  let answer!: (view: PrepareDraftView | null) => void
  const asked = new Promise<PrepareDraftView | null>((resolve) => (answer = resolve))
  let ids = 0
  const calls = {
    checkWorkbook: vi.fn(async (args: { checkId: string }) => checkView(args.checkId)),
    saveDraft: vi.fn(async () => null),
    clearDraft: vi.fn(async () => null),
  }
  const base: Record<string, unknown> = {
    on: () => () => {},
    listTemplates: async () => ({ environment: 'Sandbox', items: [], offline: false }),
    listPendingSubmissions: async () => ({ environment: 'Sandbox', items: [] }),
    getTemplate: () => new Promise(() => {}),
    restoreDraft: () => asked,
    ...calls,
  }
  const api = new Proxy(base, {
    get: (target, name: string) =>
      name in target
        ? target[name]
        : async () => {
            throw new Error(`${name} is not part of this test`)
          },
  }) as unknown as BridgeApi
  const stores = createStores(
    { api, shell: 'browser', pathForFile: () => '', onConnectionChange: () => () => {} },
    {
      toFileRef: async (file) => ({ kind: 'bytes', name: file.name, base64: '' }),
      download: () => {},
      newId: () => `check-${String((ids += 1)).padStart(4, '0')}`,
      draftDelayMs: 0,
    },
  )
  return { prepare: stores.prepare, calls, answer: () => answer(found) }
}

const saved = (environment = 'Sandbox'): PrepareDraftView => ({
  environment,
  draft,
  workbook: {
    state: 'same',
    name: 'orders.csv',
    sizeBytes: 12,
    base64: btoa('Text\nHello\n'),
    path: null,
  },
  savedAtMs: 1,
})

/** The store's timers (its draft is kept a moment after a change) run, and what they started. */
const settle = () => vi.runAllTimersAsync()

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('the New run draft in the store', () => {
  it('brings back the target, the choices and the workbook, checked with the mapping', async () => {
    const { prepare, calls, answer } = storesWith(saved())
    const opened = prepare.getState().open('Sandbox')
    answer()
    await opened
    const state = prepare.getState()
    expect(state.target).toEqual(draft.target)
    expect(state.pilot).toEqual({ on: true, rows: 2 })
    expect(state.sheet).toBe('Orders')
    expect(state.mapping).toEqual(draft.mapping)
    expect(state.file?.name).toBe('orders.csv')
    expect(calls.checkWorkbook).toHaveBeenCalledWith(
      expect.objectContaining({
        sheet: 'Orders',
        mapping: draft.mapping,
        runValues: { tone: 'friendly' },
        target: draft.target,
      }),
    )
    expect(state.restored).toMatchObject({ step: 'send', workbookProblem: null })
    // What is on screen is what the engine has: nothing is saved back.
    await settle()
    expect(calls.saveDraft).not.toHaveBeenCalled()

    // A change is kept, with the check that names the workbook.
    prepare.getState().setPilot({ on: true, rows: 3 })
    await settle()
    expect(calls.saveDraft).toHaveBeenCalledWith(
      expect.objectContaining({
        environment: 'Sandbox',
        checkId: state.check?.checkId,
        draft: expect.objectContaining({ step: 'send', pilot: { on: true, rows: 3 } }),
      }),
    )
  })

  it('shows a sent draft as its run, with nothing to send', async () => {
    const sent = { ...saved(), workbook: null }
    sent.draft = { ...draft, step: 'sent', sent: { runId: 'run_1', clientRequestId: 'req-1' } }
    const { prepare, calls, answer } = storesWith(sent)
    const opened = prepare.getState().open('Sandbox')
    answer()
    await opened
    const state = prepare.getState()
    expect(state.restored).toMatchObject({ step: 'sent', sentRunId: 'run_1' })
    expect(state.file).toBeNull()
    expect(state.check).toBeNull()
    expect(calls.checkWorkbook).not.toHaveBeenCalled()
  })

  it('lets a choice made while the draft is asked for win, and keeps it', async () => {
    const { prepare, calls, answer } = storesWith(saved())
    const opened = prepare.getState().open('Sandbox')
    void prepare.getState().chooseTemplate('other-template')
    // Nothing is saved over the draft before it was looked at.
    await settle()
    expect(calls.saveDraft).not.toHaveBeenCalled()
    expect(calls.clearDraft).not.toHaveBeenCalled()
    answer()
    await opened
    expect(prepare.getState().target).toEqual({ kind: 'template', templateId: 'other-template' })
    expect(prepare.getState().restored).toBeNull()
    expect(calls.checkWorkbook).not.toHaveBeenCalled()
    await settle()
    expect(calls.saveDraft).toHaveBeenCalledWith(
      expect.objectContaining({
        draft: expect.objectContaining({
          step: 'target',
          target: { kind: 'template', templateId: 'other-template' },
        }),
      }),
    )
  })
})
