// Helpers the end-to-end journeys share: a screenshot of the current screen in light and dark
// (under test-results/screens/, git-ignored), and an axe-core check that fails on any serious or
// critical accessibility violation.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import type { Page } from 'playwright-core'
import { root } from './support'

export const SCREENS_DIR = join(root, 'test-results', 'screens')

/** Saves NAME-light.png and NAME-dark.png of the page as it is now. */
export async function screenshotBothThemes(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENS_DIR, { recursive: true })
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await page.screenshot({ path: join(SCREENS_DIR, `${name}-${scheme}.png`), fullPage: true })
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

/** The serious and critical axe-core violations on the page, as short readable lines. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze()
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    )
}
