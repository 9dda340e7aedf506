import { describe, expect, it } from 'vitest'
import type { BatchRowView, BatchView, BridgeApi } from '../../src/shared/bridge'
import { createBatchStore } from '../../src/renderer/stores/batch-store'
import { BATCH_PAGE, PAGES_KEPT_AROUND } from '../../src/renderer/stores/batch-pages'

const TOTAL = 20_000
/** Position i of the filtered list is sheet row 2 + 3i: not its position, so numbers are read. */
const sheetRowAt = (i: number) => 2 + 3 * i

/** A batch of TOTAL rows, its pages answered from memory; the pages asked are counted. */
function batchApi() {
  const asked: number[] = []
  const row = (i: number): BatchRowView => ({
    sheetRow: sheetRowAt(i),
    state: 'succeeded',
    sends: 1,
    runId: 'r1',
    keptRunId: 'r1',
    problems: [],
    preview: `Echo of row ${sheetRowAt(i)}`,
  })
  const api = {
    getBatch: async () => ({ batchId: 'b1', runs: [] }) as unknown as BatchView,
    getBatchRows: async (req: { from: number; count: number; filter: string }) => {
      asked.push(req.from / BATCH_PAGE)
      const rows = Array.from({ length: Math.min(req.count, TOTAL - req.from) }, (_, k) =>
        row(req.from + k),
      )
      return {
        environment: 'Sandbox',
        batchId: 'b1',
        filter: req.filter,
        total: TOTAL,
        from: req.from,
        rows,
      }
    },
  } as unknown as BridgeApi
  return { api, asked }
}

const keptPages = (store: ReturnType<typeof createBatchStore>) =>
  Object.keys(store.getState().pages)
    .map(Number)
    .sort((a, b) => a - b)

describe('the batch page’s rows', () => {
  it('keeps only the pages near the view as the list scrolls far', async () => {
    const { api } = batchApi()
    const store = createBatchStore(api)
    await store.getState().open('Sandbox', 'r1')
    // Every page passed on the way, a screen at a time, to the last rows.
    for (let first = 0; first < TOTAL; first += 100)
      await store.getState().showRange(first, first + 14)
    const last = TOTAL / BATCH_PAGE - 1
    expect(keptPages(store)).toEqual([last - PAGES_KEPT_AROUND, last - 1, last])
    expect(Object.values(store.getState().pages).flat().length).toBeLessThanOrEqual(
      (2 * PAGES_KEPT_AROUND + 2) * BATCH_PAGE,
    )
  })

  it('a shift-click chooses every sheet row back to the anchor, over pages let go', async () => {
    const { api, asked } = batchApi()
    const store = createBatchStore(api)
    await store.getState().open('Sandbox', 'r1')
    await store.getState().showRange(0, 14)
    await store.getState().choose(3, false)
    expect([...store.getState().chosen]).toEqual([sheetRowAt(3)])
    // Scrolled on to the 15,000th row: page 0 is let go, the pages between were seen on the way.
    for (let first = 2_000; first <= 15_000; first += 2_000)
      await store.getState().showRange(first, first + 14)
    await store.getState().showRange(15_000, 15_014)
    expect(store.getState().pages[0]).toBeUndefined()
    await store.getState().choose(15_005, true)
    const chosen = store.getState().chosen
    expect(chosen.size).toBe(15_005 - 3 + 1)
    expect(chosen.has(sheetRowAt(3))).toBe(true)
    expect(chosen.has(sheetRowAt(9_999))).toBe(true)
    expect(chosen.has(sheetRowAt(15_005))).toBe(true)
    expect(chosen.has(sheetRowAt(15_006))).toBe(false)
    // Pages never shown were asked once for their sheet rows, and not kept as rows.
    expect(new Set(asked).size).toBe(asked.length)
    expect(keptPages(store).every((p) => Math.abs(p - 75) <= PAGES_KEPT_AROUND)).toBe(true)
    // A shift-click on a chosen row takes its range back, over the pages let go again.
    await store.getState().choose(15_000, false)
    await store.getState().showRange(0, 14)
    await store.getState().choose(3, true)
    expect([...store.getState().chosen].sort((a, b) => a - b)).toEqual(
      Array.from({ length: 5 }, (_, k) => sheetRowAt(15_001 + k)),
    )
  })
})
