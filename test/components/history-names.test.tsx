// @vitest-environment happy-dom
// History names what each submission ran the way the rest of the app does: by the template's or
// listing's name when this computer knows it, by its kind and id only when nothing names it. The
// short tags after the name (pilot, rest of a pilot) are elements of their own, so a narrow
// window shortens the name, not them (the e2e history-rows test measures that in Chromium).
import { describe, expect, it } from 'vitest'
import { HistoryScreen } from '../../src/renderer/screens/HistoryScreen'
import type { HistoryEntryView } from '../../src/shared/bridge'
import { environment } from '../helpers/run-fixtures'
import { historyEntry } from './history-fixtures'
import { render } from './harness'

const env = environment({ name: 'Sandbox' })

const entry = historyEntry

async function rowsOf(items: HistoryEntryView[]) {
  const h = await render(() => <HistoryScreen env={env} />, {
    listHistory: async () => ({ items, more: false }),
  })
  const what = (id: number) =>
    h.container.querySelector(`tr[data-history-id="${id}"] .history-what`)!
  return { h, what }
}

describe('what a history row ran', () => {
  it('names the template and the listing by their names, without their ids', async () => {
    const { what } = await rowsOf([
      entry({ targetName: 'Row echo' }),
      entry({
        id: 2,
        runId: 'run-2',
        target: 'lst_press',
        targetKind: 'listing',
        targetName: 'Press release polisher',
      }),
    ])
    expect(what(1).textContent).toBe('Row echo · 3 rows')
    expect(what(2).textContent).toBe('Press release polisher · 3 rows')
    expect(what(1).textContent).not.toContain('row-echo')
    expect(what(2).textContent).not.toContain('lst_press')
  })

  it('falls back to the kind and the id when nothing on this computer names it', async () => {
    const { what } = await rowsOf([
      entry({ targetName: '' }),
      entry({ id: 2, runId: 'run-2', target: 'lst_x', targetKind: 'listing' }),
    ])
    expect(what(1).textContent).toBe('Template row-echo · 3 rows')
    expect(what(2).textContent).toBe('Listing lst_x · 3 rows')
  })

  it('keeps a pilot’s tag apart from the name, and names the pilot in its rest’s hover', async () => {
    const { what } = await rowsOf([
      entry({ targetName: 'Row echo', rows: 2, batchRests: ['run-2'] }),
      entry({
        id: 2,
        runId: 'run-2',
        inputFilename: '',
        targetName: 'Row echo',
        rows: 4,
        batchOfRunId: 'run-1',
      }),
    ])
    const tags = (id: number) =>
      [...what(id).querySelectorAll('.history-tag')].map((tag) => tag.textContent)
    expect(what(1).querySelector('.history-target')!.textContent).toBe('Row echo')
    expect(tags(1)).toEqual([' · 2 rows', ' · pilot'])
    expect(tags(2)).toEqual([' · 4 rows', ' · rest of a pilot'])
    expect(what(1).getAttribute('title')).toContain('Row echo, sent')
    expect(what(2).getAttribute('title')).toContain('orders.xlsx, sent')
  })
})
