// State that stays true, in headless Chromium through browser mode: switching template takes off
// the workbook filled for the old one (its headline, grid and errors) and names it to drop again;
// Send says why it is disabled; switching environment on the New run screen leaves nothing of the
// old one; switching environment inside a run detail goes back to the list.
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { BUYER_TOKEN, buyerSeed } from '../helpers/buyer-seed'
import { describeInChromium, useE2eApp } from './harness'
import { agreeToCostAndSend, chooseWorkbook, pickTemplate } from './steps'
import { downloadFrom, fillInputWorkbook, readWorkbook, type InputCells } from './input-workbook'
import { screenshotAtBothSizes, screenshotBothThemes } from './screens'

/** Two rows of Row echo, the second's sequence number not a number. */
const ONE_BAD: InputCells = [
  ['Hello', null, 1],
  ['World', null, 'two'],
]

describeInChromium('State', 'New run and run detail state in headless Chromium', () => {
  const { app, page } = useE2eApp({
    homePrefix: 'skill-runner-e2e-state-',
    taskMs: 100,
    environments: [
      { name: 'Market', token: BUYER_TOKEN, sandbox: { seed: buyerSeed, taskMs: 100 } },
    ],
    context: { viewport: { width: 1280, height: 900 } },
  })

  const environment = (name: RegExp) =>
    page.getByRole('navigation', { name: 'Environments' }).getByRole('button', { name })
  const sendButton = () => page.getByRole('button', { name: 'Review the cost and send…' })

  it('clears what belonged to the old template or environment', async () => {
    await page.goto(app.mode.url)
    await pickTemplate(page, 'Row echo')
    // Nothing dropped yet: Send is disabled and says why.
    expect(await sendButton().isDisabled()).toBe(true)
    await page.getByText('Drop the filled workbook in step 3 first.').waitFor()

    const blank = await downloadFrom(page, 'Get the input workbook', app.home, 'blank.xlsx')
    const bad = join(app.home, 'bad.xlsx')
    await fillInputWorkbook(blank, bad, ONE_BAD)
    await chooseWorkbook(page, bad)
    await page.getByText('2 rows, 1 problem to fix in the workbook.').waitFor()
    await page.getByText('Fix the 1 problem in the workbook, then check it again.').waitFor()
    expect(await sendButton().isDisabled()).toBe(true)
    await page.getByRole('heading', { name: '4. Send' }).scrollIntoViewIfNeeded()
    await screenshotBothThemes(page, 'state-01-send-reason')

    // Another template: the workbook was filled for Row echo, so it goes with its check, grid
    // and error, and the panel names it to drop again.
    await pickTemplate(page, 'Document digest')
    await expect
      .poll(() => page.getByText('2 rows, 1 problem to fix in the workbook.').count())
      .toBe(0)
    expect(await page.locator('.error-list', { hasText: /Sequence number/ }).count()).toBe(0)
    expect(await page.getByTestId('rows-grid').count()).toBe(0)
    await page.getByText('“bad.xlsx” was filled for your earlier choice').waitFor()
    const note = page.getByText('was filled for your earlier choice', { exact: false })
    await screenshotAtBothSizes(page, 'state-02-other-template', {
      restore: { width: 1280, height: 900 },
      eachSize: () => note.scrollIntoViewIfNeeded(),
    })

    // Back to Row echo and the same workbook dropped again: its one problem, shown once.
    await page.getByRole('radio', { name: /Row echo/ }).check()
    await chooseWorkbook(page, bad)
    await page.getByText('2 rows, 1 problem to fix in the workbook.').waitFor()
    expect(await page.locator('.error-list', { hasText: /Row 3, Sequence number/ }).count()).toBe(1)

    // Fixed: ready, and Send is enabled with no reason beside it.
    const good = join(app.home, 'good.xlsx')
    await fillInputWorkbook(blank, good, [
      ['Hello', null, 1],
      ['World', null, 2],
    ])
    await chooseWorkbook(page, good)
    await page.getByText('2 rows, no problems: ready to send.').waitFor()
    expect(await sendButton().isDisabled()).toBe(false)
    expect(await page.locator('.send-blocker').count()).toBe(0)

    // Another environment: nothing of the Sandbox's workbook stays.
    await environment(/Market/).click()
    await page.getByRole('heading', { name: '1. What to run' }).waitFor()
    await expect.poll(() => page.getByText(/ready to send/).count()).toBe(0)
    expect(await page.getByTestId('rows-grid').count()).toBe(0)
    await page.getByText('Drop the filled workbook in step 3 first.').waitFor()
    await screenshotBothThemes(page, 'state-03-other-environment')

    // Back in the Sandbox, a run is sent and opened; switching environment from its detail goes
    // back to the other environment's runs list instead of failing to find the run there.
    await environment(/Sandbox/).click()
    await page.getByRole('radio', { name: /Row echo/ }).check()
    await chooseWorkbook(page, good)
    await page.getByText('2 rows, no problems: ready to send.').waitFor()
    await sendButton().click()
    // Sent: the run's page is open once its ID is there, folded under Details.
    await agreeToCostAndSend(page, 'Send 2 rows')
    await environment(/Market/).click()
    await expect.poll(() => page.locator('.run-detail').count()).toBe(0)
    expect(await page.getByRole('alert').count()).toBe(0)
    await screenshotBothThemes(page, 'state-04-run-detail-switched')
  })
  it('a run that set rows aside opens them from its detail', async () => {
    await page.goto(app.mode.url)
    await page.getByRole('radio', { name: /Row echo/ }).check()
    const blank = await downloadFrom(page, 'Get the input workbook', app.home, 'aside-blank.xlsx')
    const bad = join(app.home, 'aside.xlsx')
    await fillInputWorkbook(blank, bad, ONE_BAD)
    await chooseWorkbook(page, bad)
    await page.getByRole('button', { name: 'Send 1 valid row and set 1 aside to fix…' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('checkbox', { name: /I agree to pay/ }).check()
    await dialog.getByRole('button', { name: /^Send/ }).last().click()

    const card = page.getByTestId('rows-to-fix')
    await card.getByText(/1 row had problems when this run was sent/).waitFor()
    await card.scrollIntoViewIfNeeded()
    await screenshotBothThemes(page, 'state-05-run-rows-to-fix')
    const openRows = card.getByRole('button', { name: 'Open the rows to fix' })
    const saved = await downloadFrom(page, openRows, app.home, 'rows-to-fix.xlsx')
    const sheet = (await readWorkbook(saved)).getWorksheet('To fix')!
    expect(sheet.rowCount).toBe(2)
    expect(sheet.getCell('A2').value).toBe('World')
  })
})
