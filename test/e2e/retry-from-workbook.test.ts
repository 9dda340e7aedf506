// Fix and resend from a corrected workbook, in the app: a 4-row workbook sent to the built-in
// Sandbox fails in rows 3 and 5; in "Retry failed rows" the user gives back the same workbook,
// fixed in those rows. The dialog shows the changed cells as if typed, and only those rows go,
// through the same confirmation. Headless Chromium through browser mode; light and dark.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { BUILTIN_SANDBOX } from '../../src/core/environments/environments'
import { confirmPlan, planSubmission } from '../../src/core/flows/spend'
import { parseInputWorkbook } from '../../src/core/workbooks'
import { runEnded } from '../helpers/engine'
import { describeInChromium, useE2eApp } from './harness'
import { screenshotBothThemes, seriousA11yViolations } from './screens'

describeInChromium(
  'Retry-from-workbook',
  'failed rows fixed in a corrected workbook, in the app',
  () => {
    const { app, page } = useE2eApp({
      homePrefix: 'skill-runner-retry-workbook-',
      taskMs: 50,
      context: { viewport: { width: 1280, height: 800 } },
    })

    it(
      'takes the fixed cells from the workbook, shows them, and resends only those rows',
      { timeout: 120_000 },
      async () => {
        const write = (name: string, lines: string[]) => {
          const path = join(app.home, name)
          writeFileSync(path, ['Message', ...lines].join('\n'))
          return path
        }
        const sentCsv = write('orders.csv', ['alpha', 'beta [[fail]]', 'gamma', 'delta [[fail]]'])
        const connection = await app.engine.connect({ env: BUILTIN_SANDBOX })
        const planned = await planSubmission(
          app.engine,
          connection,
          (path, schema) => parseInputWorkbook({ path }, schema, { checkFiles: true }),
          { file: sentCsv, target: { kind: 'template', templateId: 'row-echo' } },
        )
        const runId = (await confirmPlan(app.engine, planned, { confirmed: true })).submission.runId
        await runEnded(connection, runId)
        const fixed = write('orders fixed.csv', ['alpha', 'beta fixed', 'gamma', 'delta fixed'])

        await page.goto(app.mode.url)
        await page
          .getByRole('navigation', { name: 'Screens' })
          .getByRole('button', { name: 'Runs' })
          .click()
        await page.locator(`tr[data-run-id="${runId}"]`).locator('button.run-name').click()
        await page.getByRole('button', { name: 'Retry failed rows' }).click()
        const fix = page.getByTestId('fix-failed-rows')
        await fix.waitFor()
        await fix.getByLabel('Choose the corrected workbook').setInputFiles(fixed)
        await fix.getByText('Taken from “orders fixed.csv”: 2 rows changed').waitFor()
        expect(await fix.getByLabel('Row 3, Message').inputValue()).toBe('beta fixed')
        expect(await fix.getByLabel('Row 5, Message').inputValue()).toBe('delta fixed')
        const review = fix.getByRole('button', { name: 'Review and send fixed rows' })
        expect(await review.isEnabled()).toBe(true)
        await screenshotBothThemes(page, 'retry-from-workbook-01-taken')
        await page.setViewportSize({ width: 860, height: 700 })
        await screenshotBothThemes(page, 'retry-from-workbook-01-taken-860')
        await page.setViewportSize({ width: 1280, height: 800 })
        expect(await seriousA11yViolations(page)).toEqual([])

        // A workbook whose rows moved is refused, and what was taken stays.
        const moved = write('moved.csv', ['a new first row', 'alpha', 'beta', 'gamma', 'delta'])
        await fix.getByLabel('Choose the corrected workbook').setInputFiles(moved)
        await fix.getByText(/Row 2 of “moved.csv” is not the row this run sent as row 2/).waitFor()
        expect(await fix.getByLabel('Row 3, Message').inputValue()).toBe('beta fixed')
        await screenshotBothThemes(page, 'retry-from-workbook-02-refused')

        await review.click()
        const dialog = page.getByTestId('confirm-submission')
        await dialog.waitFor()
        const send = dialog.getByRole('button', { name: /^Send/ })
        expect(await send.isDisabled()).toBe(true)
        await dialog.getByRole('checkbox', { name: /I agree/ }).check()
        await send.click()
        const sent = page.getByText('Sent as a new run.')
        await sent.waitFor({ timeout: 30_000 })
        const retryRunId = (await sent.getByRole('button').getAttribute('data-run-id'))!
        expect(retryRunId).not.toBe(runId)
        const retry = await runEnded(connection, retryRunId)
        expect(retry.run.totalTasks).toBe(2)
        expect(retry.run.completedTasks).toBe(2)
        const journaled = app.engine.submissions.byRun(connection.historyKey, retryRunId)
        expect(journaled?.rows.map((r) => r.message)).toEqual(['beta fixed', 'delta fixed'])
        expect(journaled?.rowNumbers).toEqual([3, 5])
      },
    )
  },
)
