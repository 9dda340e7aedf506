// @vitest-environment happy-dom
// The run detail's word on stopping: a sent run cannot be stopped from here (the service has no
// cancel), and what the service reports of cancelled rows, by their spreadsheet row.
import { afterEach, describe, expect, it } from 'vitest'
import { StoppingCard } from '../../src/renderer/runs/StoppingCard'
import type { RunTask } from '../../src/shared/contract'
import { runOverview, runSummary, runTask } from '../helpers/run-fixtures'
import { render, text, type Rendered } from '../renderer/render'

let view: Rendered | undefined
afterEach(async () => {
  await view?.unmount()
  view = undefined
})

/** A run of Sandbox sent from here, of `orders.xlsx` rows 2 to 4. */
const overview = (run: Parameters<typeof runSummary>[0], tasks: RunTask[]) =>
  runOverview({
    detail: { run: runSummary(run), market: undefined, tasks, artifacts: [] },
    inputFilename: 'orders.xlsx',
    rowNumbers: [2, 3, 4],
  })

describe('stopping a sent run', () => {
  it('while the run goes, says plainly it cannot be stopped from here, with no button', async () => {
    view = await render(
      <StoppingCard
        overview={overview({ status: 'running', totalTasks: 3 }, [runTask(0, 'running')])}
      />,
    )
    expect(text(view.container)).toContain('A sent run cannot be stopped from here')
    expect(view.container.querySelectorAll('button')).toHaveLength(0)
  })

  it('shows the cancelled rows the service reports, by their sheet row', async () => {
    view = await render(
      <StoppingCard
        overview={overview({ status: 'cancelled', totalTasks: 3, cancelledTasks: 2 }, [
          runTask(0, 'succeeded'),
          runTask(1, 'cancelled'),
          runTask(2, 'cancelled'),
        ])}
      />,
    )
    expect(text(view.container)).toContain(
      'The service reports 2 cancelled rows: Row 3, Row 4, shown with their status under Rows.',
    )
  })

  it('a count without the tasks is still said, in the singular for one', async () => {
    view = await render(
      <StoppingCard overview={overview({ status: 'succeeded', cancelledTasks: 1 }, [])} />,
    )
    expect(text(view.container)).toContain('The service reports 1 cancelled row.')
  })

  it('an ended run with nothing cancelled shows nothing', async () => {
    view = await render(
      <StoppingCard overview={overview({ status: 'succeeded', totalTasks: 3 }, [])} />,
    )
    expect(view.container.textContent).toBe('')
  })
})
