// Pilot, then the rest, end to end in headless Chromium through browser mode against the
// built-in Sandbox: a pilot of 2 rows of a 6-row workbook is sent from this device; its run page
// offers "Send the remaining 4 rows" with their cost, which goes through the same confirmation
// (the agreement first), opens the new run, and the history shows the two runs as one batch.
// Shot in light and dark at 1280x800 and 860x700.
// Then issue 20's journey on a sandbox added by address (a real environment, not the built-in
// shortcut): a 50-row workbook dropped on New run, a pilot of 5 chosen in the app, the rest of 45
// from the run's page; the service holds two runs of 5 and 45 with every row once, History shows
// one batch (the rest right under its pilot), and the results workbook saved from the app has
// the 50 rows in sheet order, each saying whether the pilot or the rest sent it.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { expect, it } from 'vitest'
import { BUILTIN_SANDBOX } from '../../src/core/environments/environments'
import { confirmPlan, planSubmission } from '../../src/core/flows/spend'
import { parseInputWorkbook } from '../../src/core/workbooks'
import { runEnded } from '../helpers/engine'
import { call, type TestSandbox } from '../helpers/sandbox'
import { until } from '../helpers/wait'
import { isTerminalStatus, paths, type RunDetail, type RunList } from '../../src/shared/contract'
import { describeInChromium, useE2eApp } from './harness'
import { writeSheet } from './input-workbook'
import { seriousA11yViolations, showScreen, screenshotAtBothSizes } from './screens'
import { chooseEnvironment, chooseWorkbook, shownRunId, useTemplateById } from './steps'

const TEAM_TOKEN = 'tok-e2e-team-pilot-rest'

describeInChromium('Pilot-rest', 'the rest of a pilot, in the app', () => {
  const { app, page } = useE2eApp({
    homePrefix: 'skill-runner-pilot-rest-',
    taskMs: 50,
    environments: [{ name: 'Team', token: TEAM_TOKEN, sandbox: { taskMs: 20 } }],
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
      await shownRunId(page)
      await showScreen(page, 'History')
      const rest = page.locator('.history-table tbody tr', { hasText: 'rest after the pilot' })
      const first = page.locator('.history-table tbody tr', { hasText: /· pilot/ })
      await rest.waitFor()
      await first.waitFor()
      // Each names the other in words on hover (workbook, when, how it went); the IDs stay on
      // the rows' data-run-id and in the buttons' accessible names.
      const restTitle = await rest.locator('.history-what').getAttribute('title')
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

  it('a pilot of 5 then the rest of 45 on an environment added by address, paid once each', async () => {
    const team = app.sandboxes.Team!
    const sheet = join(app.home, 'fifty.xlsx')
    await writeFiftyRows(sheet)

    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto(app.mode.url)
    await showScreen(page, 'New run')
    await chooseEnvironment(page, /Team/)
    await useTemplateById(page, 'row-echo', 'Row echo')
    await chooseWorkbook(page, sheet)
    await page.getByText('50 rows, no problems: ready to send.').waitFor()

    // The pilot is chosen in the app's own control: its radio, then its number of rows.
    const pilotChoice = page.locator('fieldset.pilot')
    const pilotRadio = pilotChoice.getByRole('radio', { name: /A pilot of the first/ })
    await pilotRadio.check()
    await page.getByLabel('Rows in the pilot').fill('5')
    expect(await pilotRadio.isChecked()).toBe(true)
    expect(await page.getByLabel('Rows in the pilot').inputValue()).toBe('5')
    await screenshotAtBothSizes(page, 'pilot-rest-real-pilot-choice', {
      eachSize: () => pilotChoice.scrollIntoViewIfNeeded(),
    })
    expect(await seriousA11yViolations(page)).toEqual([])

    await page.getByRole('button', { name: 'Review the cost and send…' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByText(/A pilot: the first 5 rows of 50/).waitFor()
    // Nothing ran here before: the cost is said to be unknown, and why.
    await dialog.getByText(/unknown\. The service charges what each row actually costs/).waitFor()
    const sendPilot = dialog.getByRole('button', { name: /^Send/ }).last()
    expect(await sendPilot.isDisabled()).toBe(true)
    await dialog.getByRole('checkbox', { name: /I agree to pay what this run costs/ }).check()
    await screenshotAtBothSizes(page, 'pilot-rest-real-pilot-confirm')
    await sendPilot.click()
    const pilotId = await shownRunId(page)

    // Once the pilot ended, its page offers the 45 others at the cost per row it learned.
    const card = page.getByTestId('rest-of-pilot')
    await card
      .getByText(/45 rows of the workbook this pilot was sent from are not sent yet/)
      .waitFor({ timeout: 60_000 })
    await card.getByText(/Cost: about 45 credits: 45 rows at 1 credit per row/).waitFor()
    await screenshotAtBothSizes(page, 'pilot-rest-real-rest-offer', {
      eachSize: () => card.scrollIntoViewIfNeeded(),
    })
    expect(await seriousA11yViolations(page)).toEqual([])

    await card.getByRole('button', { name: 'Send the remaining 45 rows…' }).click()
    await dialog
      .getByText(/The rest after the pilot: 45 rows \(rows 7 to 51 of the sheet\)/)
      .waitFor()
    await dialog.getByText('About 45 credits: 45 rows at 1 credit per row').waitFor()
    const sendRest = dialog.getByRole('button', { name: 'Send for about 45 credits' })
    expect(await sendRest.isDisabled()).toBe(true)
    await dialog.getByRole('checkbox', { name: /I agree to pay about 45 credits/ }).check()
    await screenshotAtBothSizes(page, 'pilot-rest-real-rest-confirm')
    await sendRest.click()
    const restId = await shownRunId(page, pilotId)

    // The service holds exactly the two runs, of 5 and 45 tasks, each charged once.
    const runs = await waitForEnded(team, [pilotId, restId])
    expect(runs.map((r) => r.run.runId).sort()).toEqual([pilotId, restId].sort())
    const pilot = runs.find((r) => r.run.runId === pilotId)!
    const rest = runs.find((r) => r.run.runId === restId)!
    expect([pilot.run.totalTasks, rest.run.totalTasks]).toEqual([5, 45])
    expect([pilot.run.actualCostT, rest.run.actualCostT]).toEqual([5, 45])
    // No row went twice: the rows the service was sent are the 50, each once.
    const sent = [...(await messagesOf(pilot)), ...(await messagesOf(rest))]
    expect(sent).toHaveLength(50)
    expect(new Set(sent)).toEqual(new Set(MESSAGES))
    expect((await messagesOf(pilot)).sort()).toEqual(MESSAGES.slice(0, 5).sort())

    // History: the two as one batch.
    await showScreen(page, 'History')
    const restRow = page.locator(`.history-table tbody tr[data-run-id="${restId}"]`)
    const pilotRow = page.locator(`.history-table tbody tr[data-run-id="${pilotId}"]`)
    await restRow.waitFor()
    expect(await restRow.textContent()).toContain('rest after the pilot')
    // The rest sits right under its pilot, said so.
    expect(Number(await restRow.getAttribute('aria-rowindex'))).toBe(
      Number(await pilotRow.getAttribute('aria-rowindex')) + 1,
    )
    expect(await restRow.getAttribute('data-batch')).toBe('under-its-pilot')
    expect(await restRow.textContent()).toContain('Rest of the pilot above')
    expect(await pilotRow.textContent()).toMatch(/· pilot/)
    expect(await restRow.locator('.history-what').getAttribute('title')).toMatch(
      /^The rest of the workbook of a pilot: fifty\.xlsx, sent .+/,
    )
    expect(await pilotRow.locator('[title^="A pilot"]').getAttribute('title')).toMatch(
      /^A pilot; the rest was sent in fifty\.xlsx, sent .+/,
    )
    await screenshotAtBothSizes(page, 'pilot-rest-real-history', {
      eachSize: () => restRow.scrollIntoViewIfNeeded(),
    })
    expect(await seriousA11yViolations(page)).toEqual([])

    // The results workbook saved from the rest's page: the 50 rows in sheet order, each
    // saying which run sent it.
    await restRow.getByRole('button', { name: `Open run ${restId}` }).click()
    await page.getByRole('button', { name: 'Save results workbook' }).click()
    await page.getByText(/Saved the results of 50 rows/).waitFor({ timeout: 60_000 })
    const saved = await page.getByLabel('Results workbook').inputValue()
    const book = new ExcelJS.Workbook()
    await book.xlsx.readFile(saved)
    const results = book.getWorksheet('Results')!
    expect(results.getRow(1).getCell(2).value).toBe('Sent in')
    expect(results.getRow(1).getCell(3).value).toBe('Message')
    const lines = Array.from({ length: 50 }, (_, i) => results.getRow(i + 2))
    expect(lines.map((l) => l.getCell(1).value)).toEqual(MESSAGES.map((_, i) => i + 2))
    expect(lines.map((l) => l.getCell(2).value)).toEqual(
      MESSAGES.map((_, i) => (i < 5 ? 'Pilot' : 'Rest')),
    )
    expect(lines.map((l) => l.getCell(3).value)).toEqual(MESSAGES)
    expect(results.getRow(52).getCell(1).value ?? null).toBe(null)
  })
})

const MESSAGES = Array.from({ length: 50 }, (_, i) => `Row ${i + 1} of fifty`)

/** A workbook of 50 messages under a "Message" header: sheet rows 2 to 51. */
const writeFiftyRows = (path: string) =>
  writeSheet(path, 'Rows', [['Message']], 50, (i) => [MESSAGES[i - 1]])

/** Every run the service holds for the user, read in full once `expected` have all ended. */
async function waitForEnded(sandbox: TestSandbox, expected: string[]): Promise<RunDetail[]> {
  let details: RunDetail[] = []
  await until(async () => {
    const list = await call<RunList>(sandbox, paths.runs(), { token: TEAM_TOKEN })
    expect(list.status).toBe(200)
    details = []
    for (const item of list.body.items) {
      const read = await call<RunDetail>(sandbox, paths.run(item.runId), { token: TEAM_TOKEN })
      details.push(read.body)
    }
    return expected.every((id) =>
      details.some((d) => d.run.runId === id && isTerminalStatus(d.run.status)),
    )
  }, 60_000)
  return details
}

/** The messages a run was sent, as the service echoes them back in each row's output. */
async function messagesOf(detail: RunDetail): Promise<string[]> {
  const messages: string[] = []
  for (const artifact of detail.artifacts) {
    const response = await fetch(artifact.accessUrl, {
      headers: { Authorization: `Bearer ${TEAM_TOKEN}` },
    })
    expect(response.status).toBe(200)
    const echoed = (await response.json()) as { values: { message?: string } }
    messages.push(String(echoed.values.message))
  }
  expect(messages).toHaveLength(detail.run.totalTasks)
  return messages
}
