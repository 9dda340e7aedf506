// Issue 19's journey, end to end in headless Chromium through browser mode, against sandboxes
// started on their own and added as environments by address: a buyer's own 50-row sheet (a
// title row, renamed headers, 3 bad rows) is proposed a mapping, which is confirmed; the 47 valid
// rows go after the usual confirmation and the 3 others are set aside; the workbook of rows to
// fix is opened, fixed with exceljs and dropped again, and its 3 rows go as the first run's
// follow-up; History shows the two runs together; the same sheet dropped again maps by itself.
// Once for a template, once for a listing the buyer does not own (its service is sent a copy of
// the valid rows under the listing's own headers). Every step is photographed, light and dark,
// and each screen checked with axe once.
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import type ExcelJS from 'exceljs'
import { expect, it } from 'vitest'
import type { Locator } from 'playwright-core'
import { keptSetAsides } from '../../src/core/flows/spend/set-aside'
import { paths, type RunDetail } from '../../src/shared/contract'
import { BUYER_TOKEN, LISTING_FEE, buyerSeed } from '../helpers/buyer-seed'
import { call, type TestSandbox } from '../helpers/sandbox'
import { describeInChromium, useE2eApp } from './harness'
import { downloadFrom, readWorkbook, writeSheet } from './input-workbook'
import { screenshotBothThemes, seriousA11yViolations } from './screens'
import {
  chooseEnvironment,
  chooseWorkbook,
  fieldOf,
  shownRunId,
  useAdCopyListing,
  useTemplateById,
} from './steps'

const TEAM_TOKEN = 'tok-e2e-team-own-sheet'
const BAD = [7, 20, 41]
const WIDE = { width: 1280, height: 800 }
const NARROW = { width: 860, height: 700 }

/** 50 rows under a title row, with the user's own headers; rows 7, 20 and 41 are bad. */
function writeOwnSheet(
  path: string,
  headers: string[],
  row: (i: number, bad: boolean) => (string | number)[],
): Promise<string> {
  const head = [['Exported from the shop, March'], [], headers]
  return writeSheet(path, 'Export', head, 50, (i) => row(i, BAD.includes(i)))
}

describeInChromium('Own-sheet journey', 'a buyer’s own sheet, from mapping to follow-up', () => {
  const { app, page } = useE2eApp({
    homePrefix: 'skill-runner-e2e-own-sheet-',
    taskMs: 50,
    environments: [
      { name: 'Team', token: TEAM_TOKEN, sandbox: { taskMs: 50 } },
      { name: 'Market', token: BUYER_TOKEN, sandbox: { seed: buyerSeed, taskMs: 50 } },
    ],
    context: { viewport: WIDE },
  })

  /** The steps axe has checked, by name without the journey's: each is checked once. */
  const checked = new Set<string>()

  /**
   * Light and dark at 1280x800, and at 860x700 too where the layout matters; axe at a step's
   * first time in this file (the two journeys show the same screens, with a template's or a
   * listing's rows), or at each time with `axe: 'each'`.
   */
  async function shoot(
    name: string,
    options: { narrow?: boolean; axe?: boolean | 'each'; show?: Locator } = {},
  ) {
    await options.show?.scrollIntoViewIfNeeded()
    await screenshotBothThemes(page, name)
    const step = name.replace(/^journey-[a-z]+-/, '')
    if (options.axe === 'each' || (options.axe !== false && !checked.has(step))) {
      checked.add(step)
      expect(await seriousA11yViolations(page)).toEqual([])
    }
    if (!options.narrow) return
    await page.setViewportSize(NARROW)
    // The app scrolls inside its content pane: what is shown must be in view at this size too.
    await options.show?.scrollIntoViewIfNeeded()
    await screenshotBothThemes(page, `${name}-narrow`)
    await page.setViewportSize(WIDE)
  }

  const screens = () => page.getByRole('navigation', { name: 'Screens' })

  async function tasksOf(sandbox: TestSandbox, token: string, runId: string): Promise<number> {
    const detail = await call<RunDetail>(sandbox, paths.run(runId), { token })
    return detail.body.run.totalTasks
  }

  /** Agrees to pay in the open confirmation and sends. */
  async function agreeAndSend() {
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('checkbox', { name: /I agree to pay/ }).check()
    await dialog.getByRole('button', { name: /^Send/ }).last().click()
  }

  /**
   * After the valid rows went as `runId`: the rows to fix opened from the run's page (a browser
   * downloads them), the same workbook the journal keeps with the run, fixed with `fix` and
   * saved for dropping again.
   */
  async function openAndFixRowsToFix(
    runId: string,
    name: string,
    fix: (sheet: ExcelJS.Worksheet) => void,
  ): Promise<string> {
    const path = await downloadFrom(page, 'Open the rows to fix', app.home, name)
    const kept = (await keptSetAsides(app.engine.home)).get(runId)
    expect(kept?.rows).toBe(3)
    const book = await readWorkbook(path)
    const journaled = await readWorkbook(kept!.path)
    const sheet = book.getWorksheet('To fix')!
    expect(sheet.getSheetValues()).toEqual(journaled.getWorksheet('To fix')!.getSheetValues())
    expect(sheet.rowCount).toBe(4)
    fix(sheet)
    await book.xlsx.writeFile(path)
    return path
  }

  /** History: the first run, its rows to fix and its follow-up right under it. */
  async function historyShowsBothLinked(runId: string, followUpId: string, name: string) {
    await screens().getByRole('button', { name: 'History' }).click()
    const first = page.locator('.history-table tbody tr', { hasText: '3 set aside to fix' }).first()
    await first.waitFor()
    expect(await first.textContent()).toContain('47 rows')
    expect(await first.textContent()).toContain('1 follow-up below')
    expect(await first.getByRole('button', { name: 'Open the 3 rows to fix' }).count()).toBe(1)
    const next = page.locator(
      `.history-table tbody tr[aria-rowindex="${Number(await first.getAttribute('aria-rowindex')) + 1}"]`,
    )
    expect(await next.textContent()).toContain('3 rows')
    expect(await next.textContent()).toContain('Follow-up of the run above')
    expect(await next.getAttribute('data-follow-up')).toBe('under-its-run')
    expect(await next.textContent()).not.toContain('retry')
    // Each opens its own run.
    await next.getByRole('button', { name: `Open run ${followUpId}` }).waitFor()
    await first.getByRole('button', { name: `Open run ${runId}` }).waitFor()
    await shoot(name, { narrow: true })
  }

  /**
   * From the mapping in use: the offer to send the 47 valid rows, its confirmation (`cost` says
   * what else the dialog must show), sent; the run the page then shows has 47 tasks.
   */
  async function sendValidRows(
    journey: string,
    sandbox: TestSandbox,
    token: string,
    cost: string | RegExp,
  ): Promise<string> {
    const offer = page.getByRole('button', { name: 'Send 47 valid rows and set 3 aside to fix…' })
    await offer.waitFor()
    await page.getByRole('heading', { name: '4. Send' }).scrollIntoViewIfNeeded()
    await shoot(`journey-${journey}-02-offer`)
    await offer.click()
    const dialog = page.getByRole('dialog')
    await dialog.getByText('Send 47 valid rows and set 3 aside?').waitFor()
    await dialog.getByText(cost).waitFor()
    await shoot(`journey-${journey}-03-confirm-47`)
    await agreeAndSend()
    const runId = await shownRunId(page)
    expect(await tasksOf(sandbox, token, runId)).toBe(47)
    await page.getByRole('heading', { name: 'Rows set aside to fix' }).scrollIntoViewIfNeeded()
    await shoot(`journey-${journey}-04-run-rows-to-fix`, { axe: false })
    return runId
  }

  /**
   * The fixed rows to fix dropped on a new run: matched as last time, confirmed (`cost` says
   * what else the dialog must show) and sent; the follow-up the page then shows has 3 tasks.
   */
  async function sendFollowUp(
    journey: string,
    fixed: string,
    runId: string,
    sandbox: TestSandbox,
    token: string,
    cost: string | RegExp,
  ): Promise<string> {
    await screens().getByRole('button', { name: 'New run' }).click()
    await chooseWorkbook(page, fixed)
    await page.getByText('matched the way you confirmed last time', { exact: false }).waitFor()
    await page.getByText('3 rows, no problems: ready to send.').waitFor()
    await page.getByRole('button', { name: 'Review the cost and send…' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByText('Send 3 fixed rows?').waitFor()
    await dialog.getByText(cost).waitFor()
    await shoot(`journey-${journey}-05-follow-up-confirm`)
    await agreeAndSend()
    await page.locator('.run-detail').waitFor()
    const followUpId = await shownRunId(page, runId)
    expect(await tasksOf(sandbox, token, followUpId)).toBe(3)
    return followUpId
  }

  /** A copy of `sheet` dropped on a new run maps by itself, shown and changeable. */
  async function droppedAgainMapsItself(
    journey: string,
    sheet: string,
    copyName: string,
    first: { header: string; field: string },
  ) {
    const again = join(app.home, copyName)
    copyFileSync(sheet, again)
    await screens().getByRole('button', { name: 'New run' }).click()
    await chooseWorkbook(page, again)
    await page.getByText('matched the way you confirmed last time', { exact: false }).waitFor()
    expect(await fieldOf(page, first.header).inputValue()).toBe(first.field)
    await page.getByRole('button', { name: 'Send 47 valid rows and set 3 aside to fix…' }).waitFor()
    await shoot(`journey-${journey}-07-remembered`, { narrow: true, show: fieldOf(page, 'Owner') })
  }

  /** The proposed mapping photographed, then put to use. */
  async function useProposedMapping(journey: string, panel: Locator) {
    await panel.scrollIntoViewIfNeeded()
    // The mapping differs between the two: a template's fields or a listing's.
    await shoot(`journey-${journey}-01-mapping-proposed`, {
      axe: 'each',
      narrow: true,
      show: fieldOf(page, 'Owner'),
    })
    await page.getByRole('button', { name: 'Use this mapping' }).click()
  }

  it(
    'a template: mapped, 47 sent, 3 fixed and sent as a follow-up, the sheet remembered',
    { timeout: 240_000 },
    async () => {
      const team = app.sandboxes.Team!
      const sheet = await writeOwnSheet(
        join(app.home, 'march.xlsx'),
        ['Text', 'Seq', 'Long notes', 'Owner'],
        (i, bad) => [`Hello ${i}`, bad ? 'n/a' : i, `Note ${i}`, `ann${i}`],
      )
      await page.goto(app.mode.url)
      await chooseEnvironment(page, /Team/)
      // Nothing was run in this environment yet: the template is named by its id.
      await useTemplateById(page, 'row-echo', 'Row echo')

      // The mapping is proposed from the renamed headers under the title, then confirmed.
      await chooseWorkbook(page, sheet)
      const panel = page.getByRole('heading', { name: 'Your columns and the template’s fields' })
      await panel.waitFor()
      await page.getByText('Row 3 is taken as the header row', { exact: false }).waitFor()
      expect(await fieldOf(page, 'Text').inputValue()).toBe('message')
      expect(await fieldOf(page, 'Seq').inputValue()).toBe('sequence')
      expect(await fieldOf(page, 'Owner').inputValue()).toBe('')
      await useProposedMapping('template', panel)
      await page
        .getByText('Your mapping is in use and remembered for this sheet.', { exact: false })
        .waitFor()

      // 47 valid rows go after the usual confirmation, priced for 47; 3 are set aside.
      const runId = await sendValidRows(
        'template',
        team,
        TEAM_TOKEN,
        /47 valid rows .*; 3 rows with problems set aside to fix, not sent/,
      )

      // The rows to fix, opened, fixed with exceljs and dropped again: a follow-up of 3.
      const fixed = await openAndFixRowsToFix(runId, 'march rows to fix.xlsx', (s) => {
        expect(s.getCell('A2').value).toBe('Hello 7')
        for (const [r, n] of [
          [2, 7],
          [3, 20],
          [4, 41],
        ])
          s.getCell(r!, 2).value = n!
      })
      const followUpId = await sendFollowUp(
        'template',
        fixed,
        runId,
        team,
        TEAM_TOKEN,
        /3 fixed rows set aside from an earlier run/,
      )
      // Its page names it a follow-up of the first run, not rows sent again.
      const links = page.locator('.run-detail .run-links')
      await links.getByText('A follow-up: sends the rows set aside from').waitFor()
      expect(await links.locator(`button[data-run-id="${runId}"]`).textContent()).toBe(
        'an earlier run',
      )

      await historyShowsBothLinked(runId, followUpId, 'journey-template-06-history')
      await droppedAgainMapsItself('template', sheet, 'march again.xlsx', {
        header: 'Text',
        field: 'message',
      })
    },
  )

  it(
    'a listing the buyer does not own: the same, its service sent the valid rows only',
    { timeout: 240_000 },
    async () => {
      const sheet = await writeOwnSheet(
        join(app.home, 'spring ads.xlsx'),
        ['Item', 'Voice', 'Word count', 'Owner'],
        (i, bad) => [`Lamp ${i}`, 'friendly', bad ? 'lots' : 10 + i, 'bea'],
      )
      const market = app.sandboxes.Market!
      await screens().getByRole('button', { name: 'New run' }).click()
      await chooseEnvironment(page, /Market/)
      await useAdCopyListing(page)

      await chooseWorkbook(page, sheet)
      const panel = page.getByRole('heading', { name: /Your columns and the/ })
      await panel.waitFor()
      expect(await fieldOf(page, 'Item').inputValue()).toBe('product')
      expect(await fieldOf(page, 'Voice').inputValue()).toBe('tone')
      expect(await fieldOf(page, 'Word count').inputValue()).toBe('words')
      expect(await fieldOf(page, 'Owner').inputValue()).toBe('')
      await useProposedMapping('listing', panel)

      // The cost counts only the 47 sent, at the listing's fee.
      const perRow = (rows: number) =>
        `About ${rows * LISTING_FEE} credits: ${rows} rows at ${LISTING_FEE} credits per row`
      const runId = await sendValidRows('listing', market, BUYER_TOKEN, perRow(47))

      const fixed = await openAndFixRowsToFix(runId, 'spring rows to fix.xlsx', (s) => {
        expect(s.getCell('A2').value).toBe('Lamp 7')
        for (const r of [2, 3, 4]) s.getCell(r, 3).value = 30 + r
      })
      const followUpId = await sendFollowUp('listing', fixed, runId, market, BUYER_TOKEN, perRow(3))

      await historyShowsBothLinked(runId, followUpId, 'journey-listing-06-history')
      await droppedAgainMapsItself('listing', sheet, 'spring ads again.xlsx', {
        header: 'Item',
        field: 'product',
      })
    },
  )
})
