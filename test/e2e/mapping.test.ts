// A sheet of the user's own in headless Chromium through browser mode: a title above renamed
// headers and an extra column. The mapping is proposed, a required field left out blocks, the
// mapping is confirmed and the 50 rows check clean; the same sheet dropped again maps itself.
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { describeInChromium, useE2eApp } from './harness'
import { writeSheet } from './input-workbook'
import { chooseWorkbook, fieldOf, newRowEchoRun } from './steps'
import { screenshotBothThemes, seriousA11yViolations } from './screens'
import { cutChoices } from './layout-measure'

/** 50 rows under a title row and a blank row, with the user's own headers. */
const ownSheet = (path: string) =>
  writeSheet(
    path,
    'Export',
    [['Messages to echo, March'], [], ['Text', 'Seq', 'Long notes', 'Owner']],
    50,
    (i) => [`Hello ${i}`, i, `Note ${i}`, `ann${i}`],
  )

describeInChromium('Column mapping', 'column mapping in headless Chromium', () => {
  const { app, page } = useE2eApp({
    homePrefix: 'skill-runner-e2e-mapping-',
    taskMs: 200,
  })

  it('proposes, blocks on a missing required field, confirms, and remembers', async () => {
    const first = await ownSheet(join(app.home, 'march.xlsx'))
    await newRowEchoRun(page, app.mode.url, first)
    const panel = page.getByRole('heading', { name: 'Your columns and the template’s fields' })
    await panel.waitFor()
    expect(await fieldOf(page, 'Text').inputValue()).toBe('message')
    expect(await fieldOf(page, 'Seq').inputValue()).toBe('sequence')
    expect(await fieldOf(page, 'Long notes').inputValue()).toBe('details')
    expect(await fieldOf(page, 'Owner').inputValue()).toBe('')
    await page.getByText('Row 3 is taken as the header row', { exact: false }).waitFor()
    await page.getByText('Hello 1 · Hello 2 · Hello 3').waitFor()
    await panel.scrollIntoViewIfNeeded()
    await screenshotBothThemes(page, 'mapping-01-proposed')
    expect(await seriousA11yViolations(page)).toEqual([])

    // Leaving the required Message without a column blocks, and says which field.
    await fieldOf(page, 'Text').selectOption('')
    await page.getByText('The required field “Message” has no column.', { exact: false }).waitFor()
    expect(await page.getByRole('button', { name: 'Use this mapping' }).isDisabled()).toBe(true)
    await screenshotBothThemes(page, 'mapping-02-required-missing')
    await fieldOf(page, 'Text').selectOption('message')

    await page.getByRole('button', { name: 'Use this mapping' }).click()
    await page.getByText('50 rows, no problems: ready to send.').waitFor()
    await page
      .getByText('Your mapping is in use and remembered for this sheet.', { exact: false })
      .waitFor()
    await screenshotBothThemes(page, 'mapping-03-confirmed')

    // The same headers again: mapped by themselves, still shown and changeable.
    const second = join(app.home, 'april.xlsx')
    copyFileSync(first, second)
    await chooseWorkbook(page, second)
    await page.getByText('april.xlsx', { exact: false }).first().waitFor()
    await page.getByText('matched the way you confirmed last time', { exact: false }).waitFor()
    await page.getByText('50 rows, no problems: ready to send.').waitFor()
    expect(await fieldOf(page, 'Text').inputValue()).toBe('message')
    await page.setViewportSize({ width: 860, height: 700 })
    await panel.scrollIntoViewIfNeeded()
    await screenshotBothThemes(page, 'mapping-04-remembered-narrow')
    // Each select shows its whole choice ("Message (required)"), not a cut one.
    expect(await cutChoices(page)).toEqual([])
  })
})

