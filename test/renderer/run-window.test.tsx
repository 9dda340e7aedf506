// @vitest-environment happy-dom
// A big run's rows or outputs asked a page at a time: at each push of the run the pages in view
// are asked again, except, in a list that only grows (a run's outputs), a page that came full.
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { expect, it } from 'vitest'
import { RUN_PAGE, useRunWindow } from '../../src/renderer/runs/use-run-window'
import { settle } from './render'

type Ask = (from: number, count: number) => Promise<{ total: number; items: number[] }>

function Listing(props: { version: number; appendOnly: boolean; ask: Ask }) {
  const window = useRunWindow(props.ask, 'run', props.version, props.appendOnly)
  return <p>{window.total}</p>
}

/** How many times the first page was asked over the first drawing and one push of the run. */
async function asksOverAPush(appendOnly: boolean, total: number): Promise<number> {
  let asked = 0
  const ask: Ask = async (from, count) => {
    asked += 1
    const items = Array.from({ length: Math.max(0, Math.min(count, total - from)) }, (_, i) => i)
    return { total, items }
  }
  const container = document.createElement('div')
  const root = createRoot(container)
  for (const version of [0, 1]) {
    await act(async () =>
      root.render(<Listing version={version} appendOnly={appendOnly} ask={ask} />),
    )
    await settle()
  }
  await act(async () => root.unmount())
  return asked
}

it('asks the rows in view again at each push of the run', async () => {
  expect(await asksOverAPush(false, RUN_PAGE * 3)).toBe(2)
})

it('asks a full page of outputs once, and one still filling again at each push', async () => {
  expect(await asksOverAPush(true, RUN_PAGE * 3)).toBe(1)
  expect(await asksOverAPush(true, RUN_PAGE - 5)).toBe(2)
})
