// The window's layout on every screen, measured in headless Chromium through browser mode
// (issue #23, item 1), at 1280x800 and 860x700: the document is exactly the window (no page
// scroll either way), the header with its tabs stays under 80 px, each screen has one scrolling
// area (data lists such as the grid scroll by their own right and fit in it), the workbook grid
// shows its last column, the sidebar folds to named icons below 960 px, cut names carry a
// tooltip and status badges are never cut. Every screen is photographed in light and dark.
import { join } from 'node:path'
import { expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { BUILTIN_SANDBOX } from '../../src/core/environments/environments'
import { describeInChromium, useE2eApp } from './harness'
import { chooseWorkbook } from './steps'
import { downloadFrom, readWorkbook } from './input-workbook'
import { screenshotBothThemes, showScreen } from './screens'
import { cutWithoutTooltip, gridReach, measureLayout } from './layout-measure'

const LONG_NAME = 'a workbook with a long name that cannot fit in its column in any window.xlsx'

describeInChromium('Layout', 'the layout of every screen', () => {
  let runId: string

  const { app, page } = useE2eApp({
    homePrefix: 'skill-runner-e2e-layout-',
    taskMs: 50,
  })

  /** The screens, each shown and waited for; the run detail last, as it replaces the list. */
  const screens: Record<string, () => Promise<void>> = {
    'new-run': async () => {
      await showScreen(page, 'New run')
      await page.getByTestId('rows-grid').waitFor()
    },
    runs: async () => {
      await showScreen(page, 'Runs')
      await page
        .locator(`tr[data-run-id="${runId}"]`)
        .getByText('Succeeded', { exact: true })
        .waitFor()
    },
    history: async () => {
      await showScreen(page, 'History')
      await page.getByRole('button', { name: `Open run ${runId}` }).waitFor()
    },
    creator: async () => {
      await showScreen(page, 'Creator')
      await page.getByRole('heading', { name: 'My listings' }).waitFor()
      await page.getByText('Pending review').first().waitFor()
    },
    settings: async () => {
      await showScreen(page, 'Settings')
      await page.getByLabel('Outputs folder').waitFor()
    },
    'run-detail': async () => {
      await showScreen(page, 'Runs')
      await page.locator(`tr[data-run-id="${runId}"] button.run-name`).click()
      await page.getByRole('button', { name: '← All runs' }).waitFor()
    },
  }

  it('prepares a run with a long file name and a wide workbook', { timeout: 120_000 }, async () => {
    const connection = await app.engine.connect({ env: BUILTIN_SANDBOX })
    const entry = await app.engine.submissions.journal(connection, {
      target: { kind: 'template', templateId: 'row-echo' },
      rows: [{ message: 'first' }],
      rowNumbers: [2],
      inputPath: join(app.home, LONG_NAME),
    })
    runId = (await app.engine.submissions.send(connection, entry)).runId

    await page.goto(app.mode.url)
    await page.getByRole('radio', { name: /Product description writer/ }).check()
    const blank = await downloadFrom(page, 'Get the input workbook', app.home, 'blank.xlsx')
    const book = await readWorkbook(blank)
    const input = book.getWorksheet('Input')!
    const columns = input.getRow(1).cellCount
    for (let r = 2; r <= 40; r += 1)
      for (let c = 1; c <= columns; c += 1) input.getCell(r, c).value = `text ${r}.${c}`
    const filled = join(app.home, 'products.xlsx')
    await book.xlsx.writeFile(filled)
    await chooseWorkbook(page, filled)
    await page.getByTestId('rows-grid').waitFor()
  })

  for (const size of [
    { width: 1280, height: 800 },
    { width: 860, height: 700 },
  ]) {
    it(`fits every screen in a ${size.width}x${size.height} window`, async () => {
      await page.setViewportSize(size)
      for (const [name, show] of Object.entries(screens)) {
        await show()
        const at = `${name} at ${size.width}x${size.height}`
        const figures = await measureLayout(page)
        expect(figures.documentHeight, at).toBe(size.height)
        expect(figures.bodyHeight, at).toBe(size.height)
        expect(figures.documentWidth, at).toBe(size.width)
        expect(figures.headerHeight, at).toBeGreaterThan(0)
        expect(figures.headerHeight, at).toBeLessThan(80)
        expect(figures.scrollAreas, at).toEqual([`div.screen.screen-${screenId(name)}`])
        expect(figures.tallDataLists, at).toEqual([])
        expect(figures.badBadges, at).toEqual([])
        expect(await cutWithoutTooltip(page, figures.cut), at).toEqual([])
        if (name === 'new-run') await checkGrid(page, size, at)
        await screenshotBothThemes(page, `layout-${name}-${size.width}x${size.height}`)
      }
      await page.getByRole('button', { name: '← All runs' }).click()
    })
  }

  it('lines up the pasted id and the version boxes', { timeout: 60_000 }, async () => {
    for (const size of [
      { width: 1280, height: 800 },
      { width: 860, height: 700 },
    ]) {
      await page.setViewportSize(size)
      await showScreen(page, 'New run')
      await page.getByRole('radio', { name: 'Marketplace listing' }).check()
      const id = page.getByLabel('Paste a link or id')
      await id.fill('some-listing')
      const version = page.getByLabel('Version', { exact: true })
      await version.waitFor()
      const [idBox, versionBox] = [(await id.boundingBox())!, (await version.boundingBox())!]
      expect(Math.abs(idBox.y - versionBox.y), `${size.width}`).toBeLessThan(1)
      const use = (await page.getByRole('button', { name: 'Use this listing' }).boundingBox())!
      // The button sits level with the boxes, or on a line of its own under them.
      const level = Math.abs(use.y - idBox.y) < 2
      expect(level || use.y >= idBox.y + idBox.height, `${size.width}`).toBe(true)
      await version.scrollIntoViewIfNeeded()
      await screenshotBothThemes(page, `layout-paste-listing-${size.width}x${size.height}`)
    }
  })

  it('folds the sidebar to named icons below 960 px', { timeout: 60_000 }, async () => {
    await page.setViewportSize({ width: 1280, height: 800 })
    const sidebar = page.getByRole('navigation', { name: 'Environments' })
    expect((await sidebar.boundingBox())!.width).toBeGreaterThan(200)
    await page.setViewportSize({ width: 860, height: 700 })
    expect((await sidebar.boundingBox())!.width).toBeLessThan(80)
    const sandbox = sidebar.getByRole('button', { name: /^Sandbox/ })
    await expect(sandbox.getAttribute('title')).resolves.toMatch(/^Sandbox · 127\.0\.0\.1:/)
    expect((await sandbox.boundingBox())!.width).toBeLessThan(60)
    const add = sidebar.getByRole('button', { name: 'Add environment' })
    await expect(add.getAttribute('title')).resolves.toBe('Add environment')
    expect((await add.boundingBox())!.width).toBeLessThan(60)
    await page.getByText('Tokens', { exact: true }).waitFor({ state: 'attached' })
    await screenshotBothThemes(page, 'layout-sidebar-860x700')
  })
})

function screenId(name: string): string {
  if (name === 'new-run') return 'prepare'
  return name === 'run-detail' ? 'runs' : name
}

/** The grid sits inside the window and, scrolled to its right end, shows its last column. */
async function checkGrid(page: Page, size: { width: number; height: number }, at: string) {
  const reach = await gridReach(page)
  expect(reach.box.right, at).toBeLessThanOrEqual(size.width)
  expect(reach.box.top, at).toBeGreaterThanOrEqual(0)
  expect(reach.box.bottom, at).toBeLessThanOrEqual(size.height)
  expect(reach.lastColumn.left, at).toBeGreaterThanOrEqual(reach.box.left)
  expect(reach.lastColumn.right, at).toBeLessThanOrEqual(reach.box.right + 1)
}
