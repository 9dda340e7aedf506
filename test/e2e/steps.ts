// Steps many journeys take the same way: picking an environment in the sidebar, naming a
// template by its id, and waiting for the page of the run just sent. Kept here so a change to
// how the app shows them is made once.
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import { LISTING_ID, LISTING_VERSION } from '../helpers/buyer-seed'

/** Opens the app at `url` and waits for the first step of a new run. */
export async function openNewRun(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await page.getByRole('heading', { name: '1. What to run' }).waitFor()
}

/** Picks the environment in the sidebar and waits for the first step of a new run. */
export async function chooseEnvironment(page: Page, name: RegExp): Promise<void> {
  await page.getByRole('navigation', { name: 'Environments' }).getByRole('button', { name }).click()
  await page.getByRole('heading', { name: '1. What to run' }).waitFor()
}

/** Names a template by its id (as when nothing was run yet) and waits for its step. */
export async function useTemplateById(page: Page, id: string, title: string): Promise<void> {
  await page.getByLabel('Paste a link or id').fill(id)
  await page.getByRole('button', { name: 'Use this template' }).click()
  await page.getByRole('heading', { name: `2. ${title}` }).waitFor()
}

/** Names Ada's listing "Ad copy" (test/helpers/buyer-seed.ts) by id and version, as Bea would. */
export async function useAdCopyListing(page: Page): Promise<void> {
  await page.getByRole('radio', { name: 'Marketplace listing' }).check()
  await page.getByLabel('Paste a link or id').fill(LISTING_ID)
  await page.getByLabel('Version', { exact: true }).fill(LISTING_VERSION)
  await page.getByRole('button', { name: 'Use this listing' }).click()
  await page.getByRole('heading', { name: '2. Ad copy' }).waitFor()
}

/**
 * Waits for the page of a run to show an id (folded under Details) other than `other`, and
 * returns it: after sending a second run, pass the first one's.
 */
export async function shownRunId(page: Page, other = ''): Promise<string> {
  const handle = await page.waitForFunction(
    (not) =>
      [...document.querySelectorAll('.run-detail .more-details code')]
        .map((c) => c.textContent?.trim() ?? '')
        .find((t) => /^run_/.test(t) && t !== not) ?? false,
    other,
  )
  return (await handle.jsonValue()) as string
}

/** Picks the template called `name` among those of a new run and waits for its step. */
export async function pickTemplate(page: Page, name: string): Promise<void> {
  await page.getByRole('radio', { name: new RegExp(name) }).check()
  await page.getByRole('heading', { name: `2. ${name}` }).waitFor()
}

/** Gives step 3 the workbook at `path`, as choosing it in the file dialog does. */
export async function chooseWorkbook(page: Page, path: string): Promise<void> {
  await page.getByLabel('Choose a workbook', { exact: true }).setInputFiles(path)
}

/** Opens the app at `url` on a new run of Row echo and gives it the workbook at `path`. */
export async function newRowEchoRun(page: Page, url: string, path: string): Promise<void> {
  await page.goto(url)
  await pickTemplate(page, 'Row echo')
  await chooseWorkbook(page, path)
}

/** Agrees to what the run costs in the open confirmation, presses `send`; the run's id. */
export async function agreeToCostAndSend(page: Page, send: string): Promise<string> {
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('checkbox', { name: /I agree to pay what this run costs/ }).check()
  await dialog.getByRole('button', { name: send }).click()
  return shownRunId(page)
}

/**
 * In the confirmation of rows sent again: nothing can be sent before the user agrees to the
 * cost; agrees, sends, and returns the new run's id once it says it was sent.
 */
export async function agreeAndSendAgain(page: Page): Promise<string> {
  const dialog = page.getByTestId('confirm-submission')
  await dialog.waitFor()
  const send = dialog.getByRole('button', { name: /^Send/ })
  expect(await send.isDisabled()).toBe(true)
  await dialog.getByRole('checkbox', { name: /I agree/ }).check()
  await send.click()
  const sent = page.getByText('Sent as a new run.')
  await sent.waitFor({ timeout: 30_000 })
  return (await sent.getByRole('button').getAttribute('data-run-id'))!
}

/** The template field chosen for the sheet's column `header` in the mapping panel. */
export const fieldOf = (page: Page, header: string) =>
  page.getByLabel(`Template field for “${header}”`)
