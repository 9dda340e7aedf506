// The New run screen's draft in headless Chromium through browser mode: a template chosen, a sheet
// of the user's own dropped, its mapping confirmed and a pilot chosen come back after a reload and
// after a restart of the engine on the same data folder, landing on the same step with a note.
// Once sent, a reload shows the run, never a screen ready to send it again; a workbook gone since
// is said in words with a way to choose it again.
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { BUILTIN_SANDBOX } from '../../src/core/environments/environments'
import { describeInChromium, useE2eApp } from './harness'
import { writeSheet } from './input-workbook'
import { agreeToCostAndSend, chooseWorkbook, fieldOf, newRowEchoRun } from './steps'
import { screenshotAtBothSizes, screenshotBothThemes, seriousA11yViolations } from './screens'

/** 5 rows under the user's own headers (mapped by hand to Row echo's fields). */
const ownSheet = (path: string) =>
  writeSheet(path, 'Export', [['Text', 'Seq', 'Long notes', 'Owner']], 5, (i) => [
    `Hello ${i}`,
    i,
    `Note ${i}`,
    `ann${i}`,
  ])

describeInChromium('Draft', 'the New run draft in headless Chromium', () => {
  const { app, page } = useE2eApp({
    homePrefix: 'skill-runner-e2e-draft-',
    taskMs: 50,
  })

  const sendButton = () => page.getByRole('button', { name: 'Review the cost and send…' })
  const note = () => page.getByTestId('draft-note')
  const kept = async () => (await app.engine.drafts.load(BUILTIN_SANDBOX))?.draft

  /** The screen as the user left it: Row echo, the sheet checked with their mapping, a pilot of 2. */
  async function expectSameStep() {
    await note().getByText('Picked up where you left off', { exact: false }).waitFor()
    await note().getByText('reviewing the cost and sending', { exact: false }).waitFor()
    await page.getByText('5 rows, no problems: ready to send.').waitFor()
    expect(await page.getByRole('radio', { name: /Row echo/ }).isChecked()).toBe(true)
    await page.getByText('march.xlsx', { exact: false }).first().waitFor()
    await page
      .getByText('Your mapping is in use and remembered for this sheet.', { exact: false })
      .waitFor()
    expect(await fieldOf(page, 'Long notes').inputValue()).toBe('')
    expect(await page.getByRole('radio', { name: /A pilot of the first/ }).isChecked()).toBe(true)
    expect(await page.getByLabel('Rows in the pilot').inputValue()).toBe('2')
    expect(await sendButton().isDisabled()).toBe(false)
  }

  it(
    'comes back to the same step after a reload and a restart; once sent, shows the run',
    { timeout: 240_000 },
    async () => {
      const sheet = await ownSheet(join(app.home, 'march.xlsx'))
      await newRowEchoRun(page, app.mode.url, sheet)
      await page.getByRole('heading', { name: 'Your columns and the template’s fields' }).waitFor()
      // A choice of the user's own, unlike the proposal: only the draft can bring it back.
      await fieldOf(page, 'Long notes').selectOption('')
      await page.getByRole('button', { name: 'Use this mapping' }).click()
      await page.getByText('5 rows, no problems: ready to send.').waitFor()
      await page.getByRole('radio', { name: /A pilot of the first/ }).check()
      await page.getByLabel('Rows in the pilot').fill('2')
      await expect.poll(async () => (await kept())?.pilot).toEqual({ on: true, rows: 2 })
      expect(await kept()).toMatchObject({ step: 'send', sheet: null, sent: null })
      // Nothing of the environment's token is in the draft's row.
      expect(JSON.stringify(await app.engine.drafts.load(BUILTIN_SANDBOX))).not.toMatch(/token/i)

      await page.reload()
      await expectSameStep()
      expect(await seriousA11yViolations(page)).toEqual([])
      // At each size the page is reloaded, so the restore lands on the step in that window.
      await screenshotAtBothSizes(page, 'draft-01-restored', {
        eachSize: async () => {
          await page.reload()
          await expectSameStep()
        },
      })

      // The engine stops and starts again on the same data folder: the draft is still there.
      await app.restart()
      await page.goto(app.mode.url)
      await expectSameStep()

      // Sent: the draft becomes the run.
      await sendButton().click()
      await agreeToCostAndSend(page, 'Send 2 rows')
      await expect.poll(async () => (await kept())?.step).toBe('sent')
      const runId = (await kept())?.sent?.runId
      expect(runId).toMatch(/^run_/)

      for (const again of [() => page.reload(), () => restartAndOpen()]) {
        await again()
        await note().getByText('your run was sent', { exact: false }).waitFor()
        expect(await note().locator(`[data-run-id="${runId}"]`).count()).toBe(1)
        // Not ready to send again: no workbook, no check, Send disabled.
        expect(await page.getByText(/ready to send/).count()).toBe(0)
        expect(await sendButton().isDisabled()).toBe(true)
        const { historyKey } = await app.engine.connect({ env: BUILTIN_SANDBOX })
        expect(app.engine.submissions.unanswered(historyKey)).toEqual([])
      }
      await screenshotBothThemes(page, 'draft-03-sent')
      expect(await seriousA11yViolations(page)).toEqual([])
      await note().getByRole('button', { name: 'Open it' }).click()
      await page
        .locator('.run-detail .more-details code', { hasText: runId! })
        .waitFor({ state: 'attached' })
    },
  )

  async function restartAndOpen() {
    await app.restart()
    await page.goto(app.mode.url)
  }

  it(
    'says when the kept workbook is gone, and offers to choose it again',
    { timeout: 120_000 },
    async () => {
      await page.goto(app.mode.url)
      await page.getByRole('radio', { name: /Row echo/ }).check()
      await chooseWorkbook(page, join(app.home, 'march.xlsx'))
      await page.getByText('5 rows, no problems: ready to send.').waitFor()
      await expect.poll(async () => (await kept())?.step).toBe('send')
      // Browser mode keeps a copy of what the page sent; take it away.
      await expect.poll(() => readdirSync(join(app.home, 'drafts')).length).toBe(1)
      for (const name of readdirSync(join(app.home, 'drafts')))
        rmSync(join(app.home, 'drafts', name))

      await page.reload()
      await note().getByText('“march.xlsx” is no longer where it was.', { exact: false }).waitFor()
      expect(await page.getByRole('radio', { name: /Row echo/ }).isChecked()).toBe(true)
      expect(await page.getByText(/ready to send/).count()).toBe(0)
      await screenshotBothThemes(page, 'draft-04-workbook-gone')
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        note().getByRole('button', { name: 'Choose it again…' }).click(),
      ])
      await chooser.setFiles(join(app.home, 'march.xlsx'))
      await page.getByText('5 rows, no problems: ready to send.').waitFor()
    },
  )
})
