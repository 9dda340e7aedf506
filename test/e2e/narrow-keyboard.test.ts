// At 860 px and with the keyboard, in headless Chromium through browser mode: the inline
// "Remove … and its token?" of an environment with a long name sits clear of the name at both
// window sizes, and Escape closes it with focus back on "Remove…".
import { expect, it } from 'vitest'
import { chooseEnvironment } from './steps'
import { describeInChromium, useE2eApp } from './harness'
import { screenshotAtBothSizes } from './screens'

const NAME = 'Acme staging for the Europe team'

describeInChromium('Narrow window', 'an 860 px window and the keyboard', () => {
  const { app, page } = useE2eApp({
    homePrefix: 'skill-runner-e2e-narrow-',
    taskMs: 50,
    environments: [{ name: NAME, token: 'tok-e2e-narrow-41c2' }],
  })

  it('asks to remove an environment clear of its name, and Escape keeps it', async () => {
    await page.goto(app.mode.url)
    await chooseEnvironment(page, new RegExp(NAME))
    const header = page.locator('header.env-header')
    for (const width of [1280, 860]) {
      await page.setViewportSize({ width, height: 700 })
      await header.getByRole('button', { name: 'Remove…' }).click()
      const ask = header.getByRole('group', { name: `Remove ${NAME}?` })
      await ask.waitFor()
      const title = (await header.locator('h1').boundingBox())!
      const box = (await ask.boundingBox())!
      const apart =
        box.y >= title.y + title.height ||
        box.x >= title.x + title.width ||
        box.y + box.height <= title.y
      expect(apart, `at ${width} px the question overlaps the name`).toBe(true)
      const keep = (await ask.getByRole('button', { name: 'Keep' }).boundingBox())!
      expect(keep.x + keep.width, `at ${width} px Keep is cut`).toBeLessThanOrEqual(width)
      if (width === 860)
        await screenshotAtBothSizes(page, 'environment-remove', {
          restore: { width: 860, height: 700 },
        })
      await page.keyboard.press('Escape')
      await ask.waitFor({ state: 'detached' })
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.textContent))
        .toBe('Remove…')
    }
  })
})
