// Issue 36 in the app, on a sandbox added by address: a run of an official template sent with an
// address to call when it ends, typed under the send step's advanced options (folded until
// opened). Bad addresses are refused in words before any cost can be asked; a good one is named
// in the confirm, the sandbox calls the small HTTP server the test runs on 127.0.0.1 when the run
// ends, the run's page shows the address under Details and History tags the run. The address
// comes back for the next run of the template here, and a listing offers no such field.
// Shot in light and dark at 1280 and 860 px wide: the confirm and the run's page.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { callbackAddressProblem } from '../../src/shared/callback-address'
import { paths } from '../../src/shared/contract'
import { useCallbackReceiver } from '../helpers/callback-receiver'
import { call } from '../helpers/sandbox'
import { describeInChromium, useE2eApp } from './harness'
import { seriousA11yViolations, screenshotAtBothSizes, showScreen } from './screens'
import { agreeToCostAndSend, chooseEnvironment, chooseWorkbook, useTemplateById } from './steps'

const TEAM_TOKEN = 'tok-e2e-team-callback'
const FIELD = 'Tell another service when the run ends (optional)'

describeInChromium('Callback', 'the address to call when a run ends, in the app', () => {
  const { app, page } = useE2eApp({
    homePrefix: 'skill-runner-callback-',
    taskMs: 50,
    environments: [{ name: 'Team', token: TEAM_TOKEN, sandbox: { taskMs: 20 } }],
  })
  const receiver = useCallbackReceiver()
  const look = (name: string) => screenshotAtBothSizes(page, `callback-${name}`)
  const runCount = async () =>
    (await call<{ totalCount: number }>(app.sandboxes.Team!, paths.runs())).body.totalCount

  it('refuses bad addresses, names a good one in the confirm, and the service calls it', async () => {
    const csv = join(app.home, 'orders.csv')
    writeFileSync(csv, 'Message\nfirst order\nsecond order\nthird order\n')
    await page.goto(app.mode.url)
    await showScreen(page, 'New run')
    await chooseEnvironment(page, /Team/)
    await useTemplateById(page, 'row-echo', 'Row echo')
    await chooseWorkbook(page, csv)
    await page.getByText('3 rows, no problems: ready to send.').waitFor()

    // Folded by default; opened, it holds the one optional field.
    const options = page.locator('details.send-options')
    expect(await options.getAttribute('open')).toBeNull()
    await options.locator('summary').click()
    const field = page.getByLabel(FIELD)
    const review = page.getByRole('button', { name: 'Review the cost and send…' })

    for (const bad of [
      'ftp://files.example.com/orders',
      'http://shop.example.com/run-ended',
      'https://ada:s3cret@hooks.example.com/run-ended',
      `https://hooks.example.com/${'a'.repeat(2048)}`,
    ]) {
      await field.fill(bad)
      await field.blur()
      const problem = callbackAddressProblem(bad)!
      await page.getByText(`${problem.message} ${problem.nextStep}`).waitFor()
      expect(await review.isDisabled(), bad).toBe(true)
      await page.getByText(/Correct the address to call when the run ends/).waitFor()
      if (bad.startsWith('http://')) {
        await screenshotAtBothSizes(page, 'callback-refused', {
          eachSize: () => review.scrollIntoViewIfNeeded(),
        })
      }
    }
    expect(await page.getByRole('dialog').count()).toBe(0)
    expect(await runCount()).toBe(0)

    const address = receiver.url('/run-ended')
    await field.fill(address)
    await options.getByText('tells another service when it ends').waitFor()
    await review.click()
    const dialog = page.getByRole('dialog')
    await dialog.getByText(`The service will call ${address}.`).waitFor()
    await look('confirm')
    expect(await seriousA11yViolations(page)).toEqual([])

    const runId = await agreeToCostAndSend(page, 'Send 3 rows')
    expect(await receiver.summaryOf(runId)).toMatchObject({ runId, completedTasks: 3 })

    // The run's page keeps it under Details.
    const details = page.locator('.run-detail .more-details')
    await details.locator('summary').click()
    await page.getByTestId('run-callback').waitFor()
    expect(await page.getByTestId('run-callback').textContent()).toBe(
      `When it ends, the service was asked to call ${address}`,
    )
    await look('run-details')
    expect(await seriousA11yViolations(page)).toEqual([])

    // History tags the run, with the address on hover.
    await showScreen(page, 'History')
    const row = page.locator(`.history-table tbody tr[data-run-id="${runId}"]`)
    const tag = row.locator('.history-tag', { hasText: 'tells another service' })
    await tag.waitFor()
    expect(await tag.getAttribute('title')).toBe(
      `When it ends, the service was asked to call ${address}`,
    )
    await look('history')

    // The next run of the template here offers the same address; a listing offers none.
    await showScreen(page, 'New run')
    await useTemplateById(page, 'row-echo', 'Row echo')
    await page.locator('details.send-options summary').click()
    expect(await page.getByLabel(FIELD).inputValue()).toBe(address)
    await page.getByRole('radio', { name: 'Marketplace listing' }).check()
    await page.getByLabel('Paste a link or id').fill('press-release-polisher')
    // The sandbox's own listing is known here with its version; one not known asks for it.
    const version = page.getByLabel('Version', { exact: true })
    if ((await version.count()) > 0) await version.fill('press-release-polisher-v1')
    await page.getByRole('button', { name: 'Use this listing' }).click()
    await page.getByRole('heading', { name: /^2\. / }).waitFor()
    expect(await page.locator('details.send-options').count()).toBe(0)
  })
})
