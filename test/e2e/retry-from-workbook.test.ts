// Fix and resend from a corrected workbook, in the app: a 4-row workbook sent to the built-in
// Sandbox fails in rows 3 and 5; in "Retry failed rows" the user gives back the same workbook,
// fixed in those rows. The dialog shows the changed cells as if typed, and only those rows go,
// through the same confirmation. The same two rows fixed by hand in the dialog's grid go the
// same way. Headless Chromium through browser mode; light and dark.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { BUILTIN_SANDBOX } from '../../src/core/environments/environments'
import { confirmPlan, planSubmission } from '../../src/core/flows/spend'
import { parseInputWorkbook } from '../../src/core/workbooks'
import { runEnded } from '../helpers/engine'
import { describeInChromium, useE2eApp } from './harness'
import { agreeAndSendAgain } from './steps'
import {
  screenshotAtBothSizes,
  screenshotBothThemes,
  seriousA11yViolations,
  showScreen,
} from './screens'

describeInChromium(
  'Retry-from-workbook',
  'failed rows fixed in a corrected workbook, in the app',
  () => {
    const { app, page } = useE2eApp({
      homePrefix: 'skill-runner-retry-workbook-',
      taskMs: 50,
    })

    const write = (name: string, lines: string[]) => {
      const path = join(app.home, name)
      writeFileSync(path, ['Message', ...lines].join('\n'))
      return path
    }

    /** A 4-row workbook sent from here whose rows 3 and 5 fail ([[fail]]), its run's fix dialog open. */
    async function failedRunOpened(name: string, rows: string[]) {
      const sentCsv = write(`${name}.csv`, rows)
      const connection = await app.engine.connect({ env: BUILTIN_SANDBOX })
      const planned = await planSubmission(
        app.engine,
        connection,
        (path, schema) => parseInputWorkbook({ path }, schema, { checkFiles: true }),
        { file: sentCsv, target: { kind: 'template', templateId: 'row-echo' } },
      )
      const runId = (await confirmPlan(app.engine, planned, { confirmed: true })).submission.runId
      await runEnded(connection, runId)
      await page.goto(app.mode.url)
      await showScreen(page, 'Runs')
      await page.locator(`tr[data-run-id="${runId}"]`).locator('button.run-name').click()
      await page.getByRole('button', { name: 'Retry failed rows' }).click()
      const fix = page.getByTestId('fix-failed-rows')
      await fix.waitFor()
      return { runId, connection, fix }
    }

    /**
     * Agrees and sends in the confirmation; then the new run holds rows 3 and 5 only, with
     * `messages`, and both succeed.
     */
    async function sentAgainAsNewRun(
      runId: string,
      connection: Awaited<ReturnType<typeof app.engine.connect>>,
      messages: string[],
    ) {
      const retryRunId = await agreeAndSendAgain(page)
      expect(retryRunId).not.toBe(runId)
      const retry = await runEnded(connection, retryRunId)
      expect(retry.run.totalTasks).toBe(2)
      expect(retry.run.completedTasks).toBe(2)
      const journaled = app.engine.submissions.byRun(connection.historyKey, retryRunId)
      expect(journaled?.rows.map((r) => r.message)).toEqual(messages)
      expect(journaled?.rowNumbers).toEqual([3, 5])
    }

    it(
      'two failed rows fixed in the grid, checked, and only those resent',
      { timeout: 120_000 },
      async () => {
        const { runId, connection, fix } = await failedRunOpened('grid', [
          'one',
          'two [[fail]]',
          'three',
          'four [[fail]]',
        ])
        await fix.getByLabel('Row 3, Message').fill('two by hand')
        await fix.getByLabel('Row 5, Message').fill('four by hand')
        await fix.getByRole('button', { name: 'Check' }).click()
        const review = fix.getByRole('button', { name: 'Review and send fixed rows' })
        await expect.poll(() => review.isDisabled()).toBe(false)
        await screenshotAtBothSizes(page, 'retry-grid-01-fixed')
        await review.click()
        await sentAgainAsNewRun(runId, connection, ['two by hand', 'four by hand'])
      },
    )

    it(
      'takes the fixed cells from the workbook, shows them, and resends only those rows',
      { timeout: 120_000 },
      async () => {
        const { runId, connection, fix } = await failedRunOpened('orders', [
          'alpha',
          'beta [[fail]]',
          'gamma',
          'delta [[fail]]',
        ])
        const fixed = write('orders fixed.csv', ['alpha', 'beta fixed', 'gamma', 'delta fixed'])
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
        await sentAgainAsNewRun(runId, connection, ['beta fixed', 'delta fixed'])
      },
    )
  },
)
