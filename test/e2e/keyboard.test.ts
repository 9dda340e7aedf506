/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// (The functions given to page.evaluate run in the page, hence the DOM types.)
// The keyboard journey (issue #23, item 4), in headless Chromium through browser mode: with the
// keyboard alone a user picks a template, loads a workbook, fixes it, sends it and opens and
// closes dialogs and an error notice. After each step the focus is on the next useful control,
// never on the page's body; a dialog keeps Tab inside itself and gives the focus back to what
// opened it. (An error notice is not a dialog: it is closed by its Dismiss button, not Escape.)
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { describeInChromium, useE2eApp } from './harness'

/** What has the focus: its role or tag and its accessible words, or "body". */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement
    if (!el || el === document.body) return 'body'
    const words =
      el.getAttribute('aria-label') ?? (el as HTMLElement).innerText ?? el.getAttribute('title')
    return `${el.tagName.toLowerCase()}: ${(words ?? '').trim().replace(/\s+/g, ' ').slice(0, 60)}`
  })
}

/** Whether the focus is inside the open dialog. */
function focusInDialog(page: Page): Promise<boolean> {
  return page.evaluate(() => Boolean(document.activeElement?.closest('dialog[open]')))
}

describeInChromium('Keyboard', 'the keyboard journey', () => {
  const { app, page } = useE2eApp({
    homePrefix: 'skill-runner-e2e-keyboard-',
    taskMs: 50,
  })

  async function workbook(name: string, rows: (string | number | null)[][]): Promise<string> {
    const book = new ExcelJS.Workbook()
    book.addWorksheet('Input').addRows([['Message', 'Details', 'Sequence number'], ...rows])
    const path = join(app.home, name)
    await book.xlsx.writeFile(path)
    return path
  }

  /** Loads a workbook as the chooser does once the focused "Choose a workbook" button opened it. */
  /** Presses `key` on `target` as a keyboard user does: focus first, then the key. */
  async function pressOn(target: Locator, key: 'Enter' | 'Space') {
    await target.focus()
    await page.keyboard.press(key)
  }

  /** Pressing `key` `times` times never takes the focus out of the open dialog. */
  async function focusStaysInDialog(key: 'Tab' | 'Shift+Tab', times: number) {
    for (let i = 0; i < times; i += 1) {
      await page.keyboard.press(key)
      expect(await focusInDialog(page), `${key} ${i + 1}`).toBe(true)
    }
  }

  /**
   * The dialog the button named `button` opens from the keyboard (shown once `shown` resolves):
   * the focus goes in, Tab and Shift+Tab keep it inside, and Escape closes the dialog and gives
   * the focus back to the button. Returns the dialog, to open it again.
   */
  async function dialogHoldsFocus(
    button: string,
    shown: (dialog: Locator) => Promise<void>,
    tabs: number,
    shiftTabs = 0,
  ): Promise<Locator> {
    await pressOn(page.getByRole('button', { name: button }), 'Enter')
    const dialog = page.getByRole('dialog')
    await shown(dialog)
    await expect.poll(() => focusInDialog(page)).toBe(true)
    await focusStaysInDialog('Tab', tabs)
    await focusStaysInDialog('Shift+Tab', shiftTabs)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => focused(page)).toBe(`button: ${button}`)
    return dialog
  }

  async function chooseWorkbook(path: string, expectText: string) {
    await page.getByRole('button', { name: /^Choose (a workbook|another)…$/ }).focus()
    await page.getByLabel('Choose a workbook', { exact: true }).setInputFiles(path)
    await page.getByText(expectText).waitFor()
  }

  it(
    'loads a workbook: the focus goes to the first problem, then to sending',
    { timeout: 120_000 },
    async () => {
      await page.goto(app.mode.url)
      await pressOn(page.getByRole('radio', { name: /Row echo/ }), 'Space')
      await page.getByRole('heading', { name: '2. Row echo' }).waitFor()

      const bad = await workbook('bad.xlsx', [
        ['Hello', null, 1],
        ['World', null, 'two'],
      ])
      await chooseWorkbook(bad, '2 rows, 1 problem to fix in the workbook.')
      await expect.poll(() => focused(page)).toMatch(/^button: C3 Row 3, Sequence number/)

      const good = await workbook('good.xlsx', [
        ['Hello', null, 1],
        ['World', null, 2],
      ])
      await chooseWorkbook(good, '2 rows, no problems: ready to send.')
      await expect.poll(() => focused(page)).toBe('button: Review the cost and send…')
    },
  )

  it(
    'the confirmation keeps Tab inside, Escape gives the focus back, sending moves it on',
    { timeout: 120_000 },
    async () => {
      const asked = (dialog: Locator) => dialog.getByText('Send 2 rows to Row echo?').waitFor()
      const dialog = await dialogHoldsFocus('Review the cost and send…', asked, 12, 4)

      await page.keyboard.press('Enter')
      await dialog.getByText('Send 2 rows to Row echo?').waitFor()
      // Every paid send waits for the one agreement, ticked with the keyboard too.
      await pressOn(dialog.getByRole('checkbox', { name: /I agree to pay/ }), 'Space')
      await pressOn(dialog.getByRole('button', { name: /^Send/ }), 'Enter')
      await page.getByRole('button', { name: '← All runs' }).waitFor()
      // The new run's screen: its title has the focus, also once the run has loaded.
      await page.locator('.run-detail .badge').first().waitFor()
      await expect.poll(() => focused(page)).toMatch(/^h2: Row echo/)
    },
  )

  it(
    'the environment dialog: Tab stays inside, Escape returns to its button',
    { timeout: 60_000 },
    async () => {
      await dialogHoldsFocus('Add environment', (dialog) => dialog.waitFor(), 10)
    },
  )

  it(
    'dismissing an error notice with the keyboard moves the focus on, never to the body',
    { timeout: 60_000 },
    async () => {
      // An environment that is removed behind the window's back: making it the default fails,
      // and the header shows the error with its Dismiss button.
      await app.engine.addEnvironment({ name: 'Gone soon', baseUrl: 'http://127.0.0.1:9' })
      await page.reload()
      const env = page.locator('.env-item', { hasText: 'Gone soon' })
      await pressOn(env, 'Enter')
      await page.getByRole('heading', { name: 'Gone soon' }).waitFor()
      await app.engine.removeEnvironment('Gone soon')
      await pressOn(page.getByRole('button', { name: 'Make default' }), 'Enter')
      const notice = page.locator('.env-header .notice-error')
      await notice.waitFor()

      await pressOn(notice.getByRole('button', { name: 'Dismiss' }), 'Enter')
      await notice.waitFor({ state: 'detached' })
      await expect.poll(() => focused(page)).not.toBe('body')
      // The control that watched the notice, in the screen's tabs, takes the focus.
      expect(await focused(page)).toMatch(/^button: /)
      expect(
        await page.evaluate(() =>
          Boolean(document.activeElement?.closest('nav[aria-label="Screens"]')),
        ),
      ).toBe(true)
    },
  )
})
