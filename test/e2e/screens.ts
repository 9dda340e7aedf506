// Helpers the end-to-end journeys share: a screenshot of the current screen in light and dark
// (under test-results/screens/, git-ignored), and an axe-core check that fails on any serious or
// critical accessibility violation.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import type { CDPSession, Page } from 'playwright-core'
import { defined } from '../../src/shared/defined'
import { root } from './support'

export const SCREENS_DIR = join(root, 'test-results', 'screens')

/** Saves NAME-light.png and NAME-dark.png of the page as it is now. */
export async function screenshotBothThemes(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENS_DIR, { recursive: true })
  const cdp = await page.context().newCDPSession(page)
  try {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await wholePagePng(cdp, join(SCREENS_DIR, `${name}-${scheme}.png`))
    }
  } finally {
    await cdp.detach()
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

/**
 * The whole page, beyond the window where it is longer, as a PNG at PATH. Chromium's faster PNG
 * encoding (`optimizeForSpeed`) writes the same pixels in a larger file: about half the time of
 * `page.screenshot`'s on a page three windows long, a seventh less on the journeys' screens,
 * most of which fit the window; a run takes some 420 (docs/performance.md).
 */
async function wholePagePng(cdp: CDPSession, path: string): Promise<void> {
  const { cssContentSize } = await cdp.send('Page.getLayoutMetrics')
  const { data } = await cdp.send('Page.captureScreenshot', {
    format: 'png',
    optimizeForSpeed: true,
    captureBeyondViewport: true,
    clip: { x: 0, y: 0, width: cssContentSize.width, height: cssContentSize.height, scale: 1 },
  })
  writeFileSync(path, Buffer.from(data, 'base64'))
}

/**
 * Once the page has drawn what it holds now: two animation frames, the second after the layout
 * and the effects the first set off (a resize, a render).
 */
export async function drawn(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  )
}

/**
 * The serious and critical axe-core violations on the page, as short readable lines: every axe
 * rule, as AxeBuilder runs them by default. axe runs in the page itself (AxeBuilder's legacy
 * mode), put there once per page: by default AxeBuilder put it in again at every check, then
 * into a blank page it opened to gather the results, about 2.5 s a check where axe's run takes
 * 0.2-0.5 s (docs/performance.md, "The test suite's time"). The app has no frames to gather.
 */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  const present = await page.evaluate(() => 'axe' in window)
  const builder = new AxeBuilder({ page, ...defined({ axeSource: present ? ';' : undefined }) })
  const result = await builder.setLegacyMode().analyze()
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    )
}

/** The two window sizes the app is used at: a laptop's and a narrow window's. */
const WINDOW_SIZES = [
  { width: 1280, height: 800 },
  { width: 860, height: 700 },
] as const

/**
 * Light and dark at both window sizes, saved as NAME-WIDTHxHEIGHT-light.png and so on, then the
 * window back to `restore`. `eachSize` runs after each resize (to scroll a card into view); the
 * page is drawn again at its new size before the pictures.
 */
export async function screenshotAtBothSizes(
  page: Page,
  name: string,
  options: { restore?: { width: number; height: number }; eachSize?: () => Promise<void> } = {},
): Promise<void> {
  for (const size of WINDOW_SIZES) {
    await page.setViewportSize(size)
    await options.eachSize?.()
    await drawn(page)
    await screenshotBothThemes(page, `${name}-${size.width}x${size.height}`)
  }
  await page.setViewportSize(options.restore ?? WINDOW_SIZES[0])
}

/** Opens one of the app's screens from its navigation ("Runs", "History", "New run"...). */
export async function showScreen(page: Page, label: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Screens' })
    .getByRole('button', { name: label })
    .click()
}
