// The words of the window, end to end in headless Chromium through browser mode: every screen
// (the empty Runs, History and Creator of a fresh environment, a run's page before and after its
// outputs are saved, the confirmation of a retry, History with a run sent again, Settings, the
// add-environment dialog, the window with no environment) is walked and its visible text, input
// values and hover titles, outside the folded "Details", must use none of the words
// docs/glossary.md says not to use, no run ID, no MIME type, no command to type and no interface
// version. Each empty list must offer a button for its next step.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { BUILTIN_SANDBOX } from '../../src/core/environments/environments'
import { runEnded } from '../helpers/engine'
import { describeInChromium, useE2eApp } from './harness'
import { drawn, screenshotAtBothSizes, screenshotBothThemes, showScreen } from './screens'
import { root } from './support'

/** The glossary's "Not" column: every backticked word of its first table's third cell. */
function forbiddenWords(): string[] {
  const glossary = readFileSync(join(root, 'docs', 'glossary.md'), 'utf8')
  // The screen words come first; the code's words, in a later section, forbid nothing on screen.
  const screenWords = glossary.split('\n## ')[0]!
  const words: string[] = []
  for (const line of screenWords.split('\n')) {
    const cells = line.split('|').map((c) => c.trim())
    if (cells.length < 5 || cells[1] === 'Word' || cells[1]?.startsWith('---')) continue
    for (const m of cells[3]!.matchAll(/`([^`]+)`/g)) words.push(m[1]!)
  }
  return words
}

const PATTERNS: readonly [string, RegExp][] = [
  ['a run ID', /\brun_[0-9a-f]{8,}/i],
  ['a MIME type', /\b(text|application|image|audio|video)\/[a-z0-9.+-]+/i],
  ['a command to type', /\b(apt(-get)? install|npm (install|ci|run)|npx)\b/i],
  // A command line, not a folder: /tmp/skill-runner-x is a path the user picked.
  ['a CLI hint', /(^|[\s`"“(])skill-runner\s+[a-z-]+/i],
  ['an interface version', /\b(v\d+(alpha|beta)\d*|api version|interface version)\b/i],
  ['a count of one in the plural', /(^|[^\d.,])1 (rows|outputs|files|runs|problems|credits)\b/],
  // A row's values as the program holds them ({"message":"Hi"}), not under the sheet's names.
  ['raw JSON of a row', /\{"[A-Za-z_][\w-]*":/],
]

/**
 * The visible text of the page outside <details> bodies, with placeholders, input values and
 * the hover titles (title attributes) a pointer can bring up.
 */
async function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const out: string[] = []
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement
      if (!parent || !parent.checkVisibility()) continue
      const folded = parent.closest('details')
      if (folded && !parent.closest('summary')) continue
      if (parent.closest('script, style')) continue
      out.push(node.textContent ?? '')
    }
    const unfolded = (el: Element) => {
      const folded = el.closest('details')
      return el.checkVisibility() && (!folded || Boolean(el.closest('summary')))
    }
    for (const input of document.querySelectorAll('input, textarea')) {
      const field = input as HTMLInputElement
      if (!unfolded(field) || field.type === 'hidden') continue
      out.push(field.placeholder)
      if (!['checkbox', 'radio', 'file'].includes(field.type)) out.push(field.value)
    }
    for (const el of document.querySelectorAll('[title]')) {
      if (unfolded(el)) out.push(el.getAttribute('title') ?? '')
    }
    return out.join(' ').replace(/\s+/g, ' ')
  })
}

/** What the screen says that the glossary or the patterns forbid, one line each. */
function offences(text: string, forbidden: readonly string[]): string[] {
  const found: string[] = []
  for (const word of forbidden) {
    const re = new RegExp(`\\b${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i')
    const m = re.exec(text)
    if (m) found.push(`"${word}" in “…${text.slice(Math.max(0, m.index - 40), m.index + 40)}…”`)
  }
  for (const [what, re] of PATTERNS) {
    const m = re.exec(text)
    if (m)
      found.push(`${what} (${m[0]}) in “…${text.slice(Math.max(0, m.index - 40), m.index + 40)}…”`)
  }
  return found
}

/** The window the words are read in. */
const WINDOW = { width: 1280, height: 860 }

describeInChromium('Words', 'the words of every screen', () => {
  const forbidden = forbiddenWords()
  const seen: Record<string, string[]> = {}

  async function check(name: string) {
    await drawn(page)
    seen[name] = offences(await visibleText(page), forbidden)
  }

  const { app, page } = useE2eApp({
    homePrefix: 'skill-runner-words-',
    taskMs: 50,
    outputsFolder: 'outputs',
    context: { viewport: WINDOW },
  })

  it('reads its words from the glossary', () => {
    expect(forbidden).toEqual(expect.arrayContaining(['task', 'artifact', 'job', 'execution']))
  })

  it('says what to do next, with a button, on every empty list', { timeout: 60_000 }, async () => {
    /** `screen`'s empty list, said with what the list is, checked; its button starts a run. */
    async function emptyList(screen: string, words: string[], name: string) {
      await showScreen(page, screen)
      for (const text of words) await page.getByText(text).waitFor()
      await check(name)
      await screenshotBothThemes(page, `words-${name}`)
      await page.getByRole('button', { name: 'Start a new run' }).click()
      await expect.poll(() => page.locator('[aria-current="page"]').textContent()).toBe('New run')
    }

    await page.goto(app.mode.url)
    await emptyList(
      'Runs',
      ['No runs yet.', 'What the service has for this environment'],
      'runs-empty',
    )
    await check('new-run')
    await emptyList(
      'History',
      ['Nothing submitted yet.', 'What this computer sent, in every environment'],
      'history-empty',
    )

    await showScreen(page, 'Creator')
    // The Sandbox may list a few listings of its own; an empty list must offer its next step.
    await page.getByRole('heading', { name: 'My listings' }).waitFor()
    await page.locator('.empty-runs, .listings-table, [role="alert"]').first().waitFor()
    for (const empty of await page.locator('.empty-runs').all()) {
      expect(await empty.getByRole('button').count()).toBe(1)
    }
    await check('creator-empty')
    await screenshotBothThemes(page, 'words-creator-empty')

    await showScreen(page, 'Settings')
    await page.getByRole('heading', { name: 'Settings' }).waitFor()
    await check('settings')
    await screenshotAtBothSizes(page, 'words-settings', { restore: WINDOW })

    // The connection check names the kind of service; its version only under Details.
    await showScreen(page, 'New run')
    await page.getByRole('button', { name: 'Check connection' }).click()
    await page.getByText('All good: this environment is ready.').waitFor()
    await check('connection-checked')
    await screenshotAtBothSizes(page, 'words-connection', { restore: WINDOW })

    await showScreen(page, 'Usage')
    await page.getByRole('heading', { name: 'The last 30 days' }).waitFor()
    await check('usage')

    await page.getByRole('button', { name: 'Add environment' }).click()
    await page.getByRole('dialog').waitFor()
    await check('add-environment')
    await page.keyboard.press('Escape')
  })

  it(
    'names a run in words on its page, in the confirmation and in History',
    {
      timeout: 90_000,
    },
    async () => {
      const connection = await app.engine.connect({ env: BUILTIN_SANDBOX })
      const entry = await app.engine.submissions.journal(connection, {
        target: { kind: 'template', templateId: 'row-echo' },
        rows: [{ message: 'first' }, { message: 'oops [[fail]]' }],
        rowNumbers: [2, 3],
      })
      const { runId } = await app.engine.submissions.send(connection, entry)
      await runEnded(connection, runId)

      await showScreen(page, 'Runs')
      const row = page.locator(`tr[data-run-id="${runId}"]`)
      await row.getByText('1 of 2 rows succeeded, 1 failed').waitFor({ timeout: 30_000 })
      await check('runs')
      await row.locator('button.run-name').click()
      await page.getByRole('button', { name: '← All runs' }).waitFor()
      await page.locator('.tasks-table tbody tr').first().waitFor()
      await check('run-detail')
      // The run's ID is still there for support, folded under Details.
      await page.locator('.run-detail summary', { hasText: 'Details' }).click()
      await page.locator('.run-detail .more-details code', { hasText: runId }).waitFor()
      await screenshotBothThemes(page, 'words-run-detail')

      await page.getByRole('button', { name: 'Retry failed rows' }).click()
      const dialog = page.getByRole('dialog')
      await dialog.waitFor()
      await dialog.getByRole('button', { name: /^Send/ }).waitFor()
      await check('confirm')
      await page.keyboard.press('Escape')

      // Saved outputs are named in words; the folder's full path (it carries the run's ID, so
      // the command line and support find it) waits under Details.
      // (The outputs may be saved already: keeping them when a run ends is on by default.)
      await page.getByRole('button', { name: /^Save all (outputs|again)$/ }).click()
      await page.getByText(/^Saved \d+ files?/).waitFor({ timeout: 30_000 })
      await page.getByRole('button', { name: 'Save results workbook' }).click()
      await page.getByText(/Saved the results of 2 rows/).waitFor({ timeout: 30_000 })
      await page.getByText('In this run’s own folder, in “outputs”').first().waitFor()
      expect(await page.getByLabel('Outputs saved in').inputValue()).toContain(runId)
      await check('run-saved')
      await screenshotBothThemes(page, 'words-run-saved')

      // A retry, so that History has a run sent again: its hover title names it in words.
      await page.getByRole('button', { name: 'Retry failed rows' }).click()
      const fix = page.getByTestId('fix-failed-rows')
      await fix.getByLabel('Row 3, Message').fill('fixed')
      await fix.getByRole('button', { name: 'Check' }).click()
      const review = fix.getByRole('button', { name: 'Review and send fixed rows' })
      await expect.poll(() => review.isDisabled()).toBe(false)
      await review.click()
      const confirm = page.getByTestId('confirm-submission')
      await confirm.getByRole('checkbox', { name: /I agree/ }).check()
      await confirm.getByRole('button', { name: /^Send/ }).click()
      await page.getByText('Sent as a new run.').waitFor({ timeout: 30_000 })

      await showScreen(page, 'History')
      const sent = page.locator(`.history-table tbody tr[data-run-id="${runId}"]`)
      await sent.getByText('Rows sent again once').waitFor()
      expect(await sent.getByText('Rows sent again once').getAttribute('title')).toMatch(
        /^Sent again in Row echo, sent .+ \(/,
      )
      await check('history')
      await screenshotAtBothSizes(page, 'words-history', { restore: WINDOW })
    },
  )

  it('offers to add an environment when there is none', { timeout: 60_000 }, async () => {
    // The built-in Sandbox cannot be removed, so the window is shown an empty list instead.
    const list = (url: URL) => url.pathname === '/bridge/listEnvironments'
    await page.route(list, async (route) => {
      const response = await route.fetch()
      const answer = await response.json()
      await route.fulfill({ response, json: { ...answer, value: { ...answer.value, items: [] } } })
    })
    try {
      await page.goto(app.mode.url)
      await page.getByRole('heading', { name: 'No environment yet' }).waitFor()
      await check('no-environment')
      await screenshotAtBothSizes(page, 'words-no-environment', { restore: WINDOW })
      const add = page.locator('.empty-state').getByRole('button', { name: 'Add environment' })
      await add.click()
      await page.getByRole('dialog', { name: 'Add an environment' }).waitFor()
      await page.keyboard.press('Escape')
      await page.getByRole('dialog').waitFor({ state: 'detached' })
      await expect.poll(() => add.evaluate((el) => el === document.activeElement)).toBe(true)
    } finally {
      await page.unroute(list)
    }
  })

  it('uses no word outside the glossary on any screen it walked', () => {
    expect(Object.keys(seen)).toEqual(
      expect.arrayContaining([
        'runs-empty',
        'run-detail',
        'run-saved',
        'confirm',
        'history',
        'settings',
        'no-environment',
      ]),
    )
    const all = Object.entries(seen).flatMap(([screen, found]) =>
      found.map((f) => `${screen}: ${f}`),
    )
    expect(all).toEqual([])
  })
})
