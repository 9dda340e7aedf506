// Steps many journeys take the same way: picking an environment in the sidebar, naming a
// template by its id, and waiting for the page of the run just sent. Kept here so a change to
// how the app shows them is made once.
import type { Page } from 'playwright-core'

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
