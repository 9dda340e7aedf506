// Pilot, then the rest, end to end in headless Chromium through browser mode against the
// built-in Sandbox: a pilot of 2 rows of a 6-row workbook is sent from this device; its run page
// offers "Send the remaining 4 rows" with their cost, which goes through the same confirmation
// (the agreement first), opens the new run, and the history shows the two runs as one batch.
// Shot in light and dark at 1280x800 and 860x700.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { BUILTIN_SANDBOX } from '../../src/core/environments/environments'
import { confirmPlan, planSubmission } from '../../src/core/flows/spend'
import { parseInputWorkbook } from '../../src/core/workbooks'
import { runEnded } from '../helpers/engine'
import { describeInChromium, useE2eApp } from './harness'
import { seriousA11yViolations, showScreen, screenshotAtBothSizes } from './screens'

describeInChromium('Pilot-rest', 'the rest of a pilot, in the app', () => {
  const { app, page } = useE2eApp({
    homePrefix: 'skill-runner-pilot-rest-',
    taskMs: 50,
    context: { viewport: { width: 1280, height: 800 } },
  })

  const look = (name: string) => screenshotAtBothSizes(page, `pilot-rest-${name}`)

  it(
    'offers the remaining rows with their cost, confirms, and keeps one batch',
    { timeout: 120_000 },
    async () => {
      const csv = join(app.home, 'six.csv')
      writeFileSync(csv, ['Message', 'a', 'b', 'c', 'd', 'e', 'f'].join('\n'))
      const connection = await app.engine.connect({ env: BUILTIN_SANDBOX })
      const pilotPlan = await planSubmission(
        app.engine,
        connection,
        (path, schema) => parseInputWorkbook({ path }, schema, { checkFiles: true }),
        {
          file: csv,
          target: { kind: 'template', templateId: 'row-echo' },
          selection: { first: 2 },
        },
      )
      const pilot = (await confirmPlan(app.engine, pilotPlan, { confirmed: true })).submission
      await runEnded(connection, pilot.runId)

      await page.goto(app.mode.url)
      await showScreen(page, 'Runs')
      await page.locator(`tr[data-run-id="${pilot.runId}"]`).locator('button.run-name').click()
      const card = page.getByTestId('rest-of-pilot')
      await card
        .getByText(/4 rows of the workbook this pilot was sent from are not sent yet/)
        .waitFor()
      await card.getByText(/Cost: about 4 credits: 4 rows at 1 credit per row/).waitFor()
      await card.scrollIntoViewIfNeeded()
      await look('offered')
      expect(await seriousA11yViolations(page)).toEqual([])

      await card.getByRole('button', { name: 'Send the remaining 4 rows…' }).click()
      const dialog = page.getByRole('dialog')
      await dialog
        .getByText(/Rows 4 rows \(rows 4 to 7 of the sheet\)|4 rows \(rows 4 to 7 of the sheet\)/)
        .waitFor()
      const send = dialog.getByRole('button', { name: 'Send for about 4 credits' })
      expect(await send.isDisabled()).toBe(true)
      await dialog.getByRole('checkbox', { name: /I agree to pay about 4 credits/ }).check()
      await look('confirm')
      await send.click()

      // The new run opens; the history names the two as one batch.
      await page
        .locator('.run-detail .more-details code', { hasText: /run_/ })
        .first()
        .waitFor({ state: 'attached' })
      await showScreen(page, 'History')
      const rest = page.locator('.history-table tbody tr', { hasText: 'rest of a pilot' })
      const first = page.locator('.history-table tbody tr', { hasText: /· pilot/ })
      await rest.waitFor()
      await first.waitFor()
      // Each names the other in words on hover (workbook, when, how it went); the IDs stay on
      // the rows' data-run-id and in the buttons' accessible names.
      const restTitle = await rest.locator('[title]').first().getAttribute('title')
      expect(restTitle).toMatch(/^The rest of the workbook of a pilot: six\.csv, sent .+ \(.+\)$/)
      expect(restTitle).not.toMatch(/run_/)
      expect(await first.getAttribute('data-run-id')).toBe(pilot.runId)
      expect(await first.getByRole('button', { name: `Open run ${pilot.runId}` }).count()).toBe(1)
      const pilotTitle = await first.locator('[title^="A pilot"]').getAttribute('title')
      expect(pilotTitle).toMatch(/^A pilot; the rest was sent in six\.csv, sent .+ \(.+\)$/)
      expect(pilotTitle).not.toMatch(/run_/)
      await look('history')
    },
  )
})
