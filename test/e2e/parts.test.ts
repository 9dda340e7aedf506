// A workbook with more rows than the service takes at once, sent from the app: the confirmation
// says the parts and the whole cost before the agreement, whose words name the runs, and the one
// send makes a run of each part. The run's page says which part it shows and follows the others
// to their end: once its own has ended, the next part still under way, a click away. A sandbox
// added by address takes at most 2 rows at once, and this computer knows it. Shot in light and
// dark at 1280x800 and 860x700.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { call } from '../helpers/sandbox'
import { paths, type RunList } from '../../src/shared/contract'
import { describeInChromium, useE2eApp } from './harness'
import { seriousA11yViolations, showScreen, screenshotAtBothSizes } from './screens'
import { chooseEnvironment, chooseWorkbook, shownRunId, useTemplateById } from './steps'

describeInChromium('Parts', 'a workbook sent as parts, in the app', () => {
  const { app, page } = useE2eApp({
    homePrefix: 'skill-runner-parts-',
    taskMs: 50,
    environments: [
      { name: 'Team', token: 'tok-e2e-team-parts', sandbox: { taskMs: 20, maxRows: 2 } },
    ],
  })

  it(
    'says the parts before the agreement and sends each as a run',
    { timeout: 120_000 },
    async () => {
      const team = app.sandboxes.Team!
      const connection = await app.engine.connect({ env: 'Team' })
      app.engine.rowLimits.set(connection.historyKey, 2)
      const csv = join(app.home, 'five.csv')
      // The last row's part stays under way (the sandbox holds a row marked [[stall]]).
      writeFileSync(csv, ['Message', 'a', 'b', 'c', 'd', 'e [[stall]]'].join('\n'))

      await page.goto(app.mode.url)
      await showScreen(page, 'New run')
      await chooseEnvironment(page, /Team/)
      await useTemplateById(page, 'row-echo', 'Row echo')
      await chooseWorkbook(page, csv)
      await page.getByText('5 rows, no problems: ready to send.').waitFor()
      await page.getByRole('button', { name: 'Review the cost and send…' }).click()
      const dialog = page.getByRole('dialog')
      const note = dialog.getByTestId('plan-parts')
      await note
        .getByText(/5 rows go as 3 parts of at most 2 rows \(the most set for this environment\)/)
        .waitFor()
      await dialog.getByRole('checkbox', { name: /I agree to pay.*these 3 runs/ }).check()
      await screenshotAtBothSizes(page, 'parts-confirm', {
        eachSize: () => note.scrollIntoViewIfNeeded(),
      })
      expect(await seriousA11yViolations(page)).toEqual([])
      await dialog.getByRole('button', { name: /^Send/ }).last().click()
      const first = await shownRunId(page)

      const runs = await call<RunList>(team, paths.runs())
      expect(runs.body.items.map((r) => r.totalTasks).sort()).toEqual([1, 2, 2])

      // The first part's page: which part, the batch's words as the other parts move on, and
      // once it has ended the part still under way.
      const batchLine = page.locator('.batch-link')
      await batchLine.getByText(/^Part 1 of 3 of/).waitFor()
      await batchLine.getByText(/5 rows: 4 succeeded, 1 still running/).waitFor()
      const next = page.getByTestId('next-part')
      await next.getByText('Part 3 is still under way: 0 of 1 row done.').waitFor()
      await screenshotAtBothSizes(page, 'parts-run-page', {
        eachSize: () => next.scrollIntoViewIfNeeded(),
      })
      await next.getByRole('button', { name: 'Show part 3' }).click()
      const third = await shownRunId(page, first)
      expect(third).not.toBe(first)
      await batchLine.getByText(/^Part 3 of 3 of/).waitFor()
      expect(await next.count()).toBe(0)
    },
  )
})
