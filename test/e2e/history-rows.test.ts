// History's rows end to end in headless Chromium through browser mode against the built-in
// Sandbox: a pilot of a workbook with a long name and the rest of it, sent from this computer.
// Each row names the template as the rest of the app does ("Row echo", not its id), and the
// words "pilot" and "rest of a pilot" show whole at 1280x800 and 860x700 (the template's name
// gives way first). Shot in light and dark at both sizes.
import { join } from 'node:path'
import { expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { BUILTIN_SANDBOX } from '../../src/core/environments/environments'
import { runEnded } from '../helpers/engine'
import { describeInChromium, useE2eApp } from './harness'
import { screenshotBothThemes, showScreen } from './screens'

const LONG_NAME = 'quarterly orders for the northern region, second draft with comments.xlsx'

/** The words a row must show whole: its row count and its pilot tag. */
const WHOLE_WORDS = ['rows', 'pilot']

/**
 * Every place a row's tag word ("pilot", "rows") is laid out past an edge that clips it: the
 * word's own box, measured as a text range, against its element and each one up to its line.
 */
function cutTags(page: Page): Promise<string[]> {
  return page.evaluate((words) => {
    const cut: string[] = []
    for (const line of document.querySelectorAll('.history-table tbody .run-sub')) {
      // The nearest edge that clips: the word's own element or any element up to its line.
      const edgeOf = (node: Node) => {
        let edge = Infinity
        for (let el = node.parentElement; el; el = el.parentElement) {
          edge = Math.min(edge, el.getBoundingClientRect().right)
          if (el === line) break
        }
        return edge
      }
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of words) {
          const at = node.textContent?.indexOf(word) ?? -1
          if (at < 0) continue
          const range = document.createRange()
          range.setStart(node, at)
          range.setEnd(node, at + word.length)
          const right = range.getBoundingClientRect().right
          // Any overflow at all ellipsizes the text, even a fraction of a pixel.
          const edge = edgeOf(node)
          if (right > edge + 0.01) cut.push(`“${word}” of ${line.textContent} (${right - edge}px)`)
        }
      }
    }
    return cut
  }, WHOLE_WORDS)
}

describeInChromium('History rows', 'what History says a run ran, whole', () => {
  const { app, page } = useE2eApp({
    homePrefix: 'skill-runner-e2e-history-rows-',
    taskMs: 20,
  })

  it(
    'names the template and shows the pilot tags whole at both sizes',
    { timeout: 120_000 },
    async () => {
      const connection = await app.engine.connect({ env: BUILTIN_SANDBOX })
      const target = { kind: 'template', templateId: 'row-echo' } as const
      const inputPath = join(app.home, LONG_NAME)
      const send = async (rows: string[], batchOfRunId?: string) => {
        const entry = await app.engine.submissions.journal(connection, {
          target,
          rows: rows.map((message) => ({ message })),
          inputPath,
          workbookRows: 6,
          ...(batchOfRunId ? { batchOfRunId } : {}),
        })
        const { runId } = await app.engine.submissions.send(connection, entry)
        await runEnded(connection, runId)
        return runId
      }
      const pilot = await send(['a', 'b'])
      const rest = await send(['c', 'd', 'e', 'f'], pilot)

      await page.goto(app.mode.url)
      await showScreen(page, 'History')
      const pilotRow = page.locator(`.history-table tbody tr[data-run-id="${pilot}"]`)
      const restRow = page.locator(`.history-table tbody tr[data-run-id="${rest}"]`)
      await pilotRow.getByText('Row echo · 2 rows').waitFor()
      await restRow.getByText('Row echo · 4 rows').waitFor()
      for (const row of [pilotRow, restRow])
        expect(await row.textContent()).not.toContain('row-echo')
      expect(await pilotRow.locator('.history-what').textContent()).toBe(
        'Row echo · 2 rows · pilot',
      )

      for (const size of [
        { width: 1280, height: 800 },
        { width: 860, height: 700 },
      ]) {
        await page.setViewportSize(size)
        await pilotRow.getByText('pilot', { exact: false }).first().waitFor()
        expect(await cutTags(page), `${size.width}x${size.height}`).toEqual([])
        await screenshotBothThemes(page, `history-rows-${size.width}x${size.height}`)
      }

      // The search finds runs by the template's name as History shows it, whatever its case.
      const search = page.getByRole('searchbox', { name: 'Search the history' })
      const shown = page.locator('.history-table tbody tr[data-run-id]')
      await search.fill('ROW ECHO')
      await expect.poll(() => shown.count()).toBe(2)
      await search.fill('document digest')
      await page.getByText('Nothing in the history matches “document digest”').waitFor()
      await screenshotBothThemes(page, 'history-search-no-match')
    },
  )
})
