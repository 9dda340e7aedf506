// Finding what to run, in headless Chromium against a separately started sandbox added as an
// environment (the service has no catalog): a listing Bea ran before is offered with the
// version she ran, and a template is found from a link pasted from the service's website.
import { expect, it } from 'vitest'
import { paths } from '../../src/shared/contract'
import { BUYER_TOKEN, LISTING_ID, LISTING_VERSION, buyerSeed } from '../helpers/buyer-seed'
import { call } from '../helpers/sandbox'
import { describeInChromium, useE2eApp } from './harness'
import { screenshotAtBothSizes, screenshotBothThemes, seriousA11yViolations } from './screens'
import { chooseEnvironment } from './steps'

describeInChromium('Catalog', 'finding what to run', () => {
  const { app, page } = useE2eApp({
    homePrefix: 'skill-runner-e2e-catalog-',
    taskMs: 50,
    environments: [{ name: 'Market', token: BUYER_TOKEN, sandbox: { seed: buyerSeed } }],
  })

  it(
    'offers a listing from an earlier run and reads a pasted link',
    { timeout: 120_000 },
    async () => {
      // An earlier run of the listing, made on the service's own (as from another computer).
      const earlier = await call(app.sandboxes.Market!, paths.execute(LISTING_ID), {
        token: BUYER_TOKEN,
        body: {
          clientRequestId: 'e2e-catalog-earlier',
          confirm: true,
          inputRows: [{ product: 'Kettle', tone: 'friendly', words: 20 }],
          listingVersionId: LISTING_VERSION,
        },
      })
      expect(earlier.status).toBe(200)

      await page.goto(app.mode.url)
      // The built-in Sandbox has published listings: its user's own, offered with their version.
      await page.getByRole('heading', { name: '1. What to run' }).waitFor()
      await page.getByRole('radio', { name: 'Marketplace listing' }).check()
      const sandboxListing = page.locator('.template-option', { hasText: 'Press release polisher' })
      await sandboxListing.waitFor()
      expect(await sandboxListing.textContent()).toContain(
        'press-release-polisher · version press-release-polisher-v1',
      )
      expect(await sandboxListing.textContent()).toContain('your listing')
      // A retired listing is shown, not offered: it says why.
      const retired = page.locator('.template-option', { hasText: 'FAQ builder (retired)' })
      expect(await retired.getByRole('radio').isDisabled()).toBe(true)
      expect(await retired.textContent()).toContain('No longer sold: it cannot be run')
      await retired.scrollIntoViewIfNeeded()
      await screenshotAtBothSizes(page, 'catalog-sandbox-listings')

      await chooseEnvironment(page, /Market/)
      await page.getByRole('radio', { name: 'Marketplace listing' }).check()
      const entry = page.locator('.template-option', { hasText: 'Ad copy' })
      await entry.waitFor()
      const entryText = await entry.textContent()
      expect(entryText).toContain(`${LISTING_ID} · version ${LISTING_VERSION}`)
      expect(entryText).toContain('1 row run')
      expect(entryText).toContain('from your runs')

      // A link to the listing without its version: the version she ran is offered.
      const paste = page.getByLabel('Paste a link or id')
      await paste.fill(`https://market.example.com/listings/${LISTING_ID}`)
      const found = page.locator('.paste-found')
      await expect
        .poll(() => found.textContent())
        .toBe(
          `Found the listing “${LISTING_ID}” (Ad copy). Version “${LISTING_VERSION}”: the latest one you ran.`,
        )
      await screenshotBothThemes(page, 'catalog-listing')
      expect(await seriousA11yViolations(page)).toEqual([])

      await page.getByRole('radio', { name: 'Ad copy' }).check()
      await page.getByRole('heading', { name: '2. Ad copy' }).waitFor()

      // A template no list knows, from a link copied from the service's website.
      await page.getByRole('radio', { name: 'Official template' }).check()
      await paste.fill('https://market.example.com/templates/tpl-echo?utm_source=mail')
      // Read from the link, but found only once the service has it.
      await expect
        .poll(() => found.textContent())
        .toBe('The template id “tpl-echo”: choose Use this template to open it.')
      await page.getByRole('button', { name: 'Use this template' }).click()
      await page.getByRole('heading', { name: '2. Echo' }).waitFor()
      await expect.poll(() => found.textContent()).toBe('Found the template “tpl-echo”.')
      await screenshotAtBothSizes(page, 'catalog-template-link')

      // Junk is said to be junk, and nothing can be used.
      await paste.fill('see you at 5')
      await page.getByText('That is neither a link nor an id').waitFor()
      expect(await page.getByRole('button', { name: 'Use this template' }).isDisabled()).toBe(true)

      // The listings with their facts on a small window.
      await page.setViewportSize({ width: 860, height: 700 })
      await page.getByRole('radio', { name: 'Marketplace listing' }).check()
      await paste.fill(LISTING_ID)
      await screenshotBothThemes(page, 'catalog-listing-860')
    },
  )
})
