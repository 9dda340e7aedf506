// Choosing with the mouse or the keyboard instead of typing, end to end in headless Chromium on
// the built-in Sandbox: two runs of the same sheet ticked in the runs list and compared, with the
// differing output highlighted; two rows marked "Redo" in a run's row table, confirmed and their
// new versions shown; and an older version of a row kept by choice, remembered by the history.
import { expect, it } from 'vitest'
import { BUILTIN_SANDBOX } from '../../src/core/environments/environments'
import { runEnded } from '../helpers/engine'
import { describeInChromium, useE2eApp } from './harness'
import { drawn, screenshotBothThemes, seriousA11yViolations } from './screens'

const SIZES = [
  [1280, 800],
  [860, 700],
] as const

describeInChromium('Choosing', 'choosing runs and rows in the app', () => {
  const { app, page } = useE2eApp({
    homePrefix: 'skill-runner-choose-',
    taskMs: 50,
    outputsFolder: 'outputs',
  })

  /** A run of row-echo with these messages on sheet rows 2, 3..., sent from here and ended. */
  async function sent(messages: string[]): Promise<string> {
    const connection = await app.engine.connect({ env: BUILTIN_SANDBOX })
    const entry = await app.engine.submissions.journal(connection, {
      target: { kind: 'template', templateId: 'row-echo' },
      rows: messages.map((message) => ({ message })),
      rowNumbers: messages.map((_, i) => i + 2),
    })
    const { runId } = await app.engine.submissions.send(connection, entry)
    await ended(runId)
    return runId
  }

  async function ended(runId: string) {
    return runEnded(await app.engine.connect({ env: BUILTIN_SANDBOX }), runId)
  }

  async function showRunsList() {
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('button', { name: 'Runs' })
      .click()
    const back = page.getByRole('button', { name: '← All runs' })
    if (await back.isVisible()) await back.click()
  }

  async function openRun(runId: string) {
    await showRunsList()
    await page.locator(`tr[data-run-id="${runId}"] button.run-name`).click()
  }

  async function shots(name: string, target?: string) {
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height })
      if (target) await page.locator(target).first().scrollIntoViewIfNeeded()
      await drawn(page)
      await screenshotBothThemes(page, `choose-${name}-${width}`)
    }
    await page.setViewportSize({ width: 1280, height: 800 })
  }

  it('compares two runs ticked in the runs list', { timeout: 90_000 }, async () => {
    const first = await sent(['alpha', 'beta', 'same place', 'only here'])
    const second = await sent(['beta', 'alpha', 'same place', 'new one'])
    await page.goto(app.mode.url)
    await showRunsList()
    const start = page.getByRole('button', { name: 'Compare runs' })
    await start.click()
    expect(await start.getAttribute('aria-pressed')).toBe('true')
    const chooser = page.locator('section.compare-chooser')
    const compare = chooser.getByRole('button', { name: 'Compare 2 runs' })
    expect(await compare.isDisabled()).toBe(true)
    // One by the mouse, one by the keyboard.
    await page.locator(`tr[data-run-id="${first}"] input.run-choose`).check()
    await page.locator(`tr[data-run-id="${second}"] input.run-choose`).focus()
    await page.keyboard.press('Space')
    await chooser.getByText('Two runs ticked').waitFor()
    await shots('list-ticked')
    await compare.focus()
    await page.keyboard.press('Enter')
    await chooser
      .getByText('3 rows in both, 2 differ; 1 only in A; 1 only in B', { exact: false })
      .waitFor({ timeout: 30_000 })
    // The row whose output differs is marked, its changed field shown struck and inserted.
    const alpha = chooser.locator('.comparison-table tbody tr').filter({ hasText: 'Row 2 · Row 3' })
    expect(await alpha.getAttribute('class')).toContain('compare-differs')
    expect(await alpha.locator('.compare-fields li del').allTextContents()).toEqual(['0'])
    expect(await alpha.locator('.compare-fields li ins').allTextContents()).toEqual(['1'])
    expect(await seriousA11yViolations(page)).toEqual([])
    await shots('list-compared', 'section.compare-chooser')
    await chooser.getByRole('button', { name: 'Close the comparison' }).click()
    expect(await page.locator('section.compare-chooser').count()).toBe(0)
    expect(await page.locator('input.run-choose').count()).toBe(0)
  })

  it(
    'redoes two rows marked in the row table, then keeps an older version',
    {
      timeout: 120_000,
    },
    async () => {
      const runId = await sent(['one', 'two', 'three'])
      await openRun(runId)
      const redo = page.getByRole('button', { name: 'Redo marked rows' })
      expect(await redo.isDisabled()).toBe(true)
      await page.getByRole('checkbox', { name: 'Redo row 2' }).check()
      await page.getByRole('checkbox', { name: 'Redo row 4' }).focus()
      await page.keyboard.press('Space')
      await shots('redo-marked', 'section[aria-labelledby="tasks-title"]')
      await page.getByRole('button', { name: 'Redo 2 rows' }).click()
      const dialog = page.getByRole('dialog')
      await dialog.waitFor()
      expect(await dialog.textContent()).toContain('2 rows')
      await shots('redo-confirm')
      const send = dialog.getByRole('button', { name: /^Send/ })
      expect(await send.isDisabled()).toBe(true)
      await dialog.getByRole('checkbox', { name: /I agree/ }).check()
      await send.click()
      const sentNote = page
        .locator('section[aria-labelledby="tasks-title"]')
        .getByText('Sent as a new run')
      await sentNote.waitFor({ timeout: 30_000 })
      const redoRunId = (await sentNote.getByRole('button').getAttribute('data-run-id'))!
      expect((await ended(redoRunId)).run.totalTasks).toBe(2)
      // Sent: the marks are cleared.
      expect(await page.getByRole('checkbox', { name: 'Redo row 2' }).isChecked()).toBe(false)

      await openRun(runId)
      const versions = page.locator('.row-versions li')
      await versions.first().waitFor({ timeout: 30_000 })
      expect(await versions.allTextContents()).toEqual([
        'Row 2: this run (succeeded) Keep this one → sent again (succeeded, kept)',
        'Row 4: this run (succeeded) Keep this one → sent again (succeeded, kept)',
      ])
      await shots('redo-versions', '.row-versions')

      await page.getByRole('button', { name: 'Keep this one: this run, row 2' }).click()
      await versions.first().getByText('kept as you chose').waitFor()
      expect(await versions.first().textContent()).toBe(
        'Row 2: this run (succeeded, kept as you chose) → sent again (succeeded) Keep this one',
      )
      const connection = await app.engine.connect({ env: BUILTIN_SANDBOX })
      expect(app.engine.history.keptVersions(connection.historyKey, runId)).toEqual(
        new Map([[0, runId]]),
      )
      // Opened again, the run's page shows the choice the history kept.
      await openRun(runId)
      await versions.first().getByText('kept as you chose').waitFor({ timeout: 30_000 })
      expect(await seriousA11yViolations(page)).toEqual([])
      await shots('kept-by-choice', '.row-versions')
    },
  )
})
