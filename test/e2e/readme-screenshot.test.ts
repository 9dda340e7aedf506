// The picture in README.md is made here: the built app in browser mode, in headless Chromium,
// on the built-in Sandbox with a finished run, every screen shot into test-results/screens/
// (git-ignored). With SKILL_RUNNER_UPDATE_SCREENSHOT=1 the Runs screen is also written to
// docs/skill-runner.png, the file README.md shows. Either way the committed picture must still
// show what the Runs screen shows now: the two are compared square by square, coarsely enough
// that font anti-aliasing passes and finely enough that a moved, added or removed part fails.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { inflateSync } from 'node:zlib'
import { expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { runEnded } from '../helpers/engine'
import { describeInChromium, useE2eApp } from './harness'
import { drawn, SCREENS_DIR } from './screens'
import { root } from './support'

export const README_SCREENSHOT = join('docs', 'skill-runner.png')
const SIZE = { width: 1280, height: 800 }
const RENEW = 'SKILL_RUNNER_UPDATE_SCREENSHOT=1 npx vitest run test/e2e/readme-screenshot.test.ts'

// The comparison: the mean colour of each BLOCK x BLOCK square, 0-255 per channel. Text drawn
// with other glyph positioning or at 1% zoom moved squares by up to 28 when this was tuned; a
// table 3 px lower, a name 6 px to the right, a hidden button or two more letters in the title
// each moved some square by more than 50.
const BLOCK = 8
const TOLERANCE = 40

interface Picture {
  width: number
  height: number
  /** Red, green, blue for each pixel, row by row. */
  rgb: Uint8Array
}

interface Box {
  x: number
  y: number
  width: number
  height: number
}

/** Decodes the PNGs Playwright writes: 8-bit RGB or RGBA, not interlaced. */
function readPng(file: string): Picture {
  const data = readFileSync(file)
  expect(data.subarray(1, 4).toString('ascii')).toBe('PNG')
  let header: Buffer | undefined
  const compressed: Buffer[] = []
  for (let at = 8; at < data.length;) {
    const length = data.readUInt32BE(at)
    const type = data.toString('ascii', at + 4, at + 8)
    const body = data.subarray(at + 8, at + 8 + length)
    if (type === 'IHDR') header = body
    if (type === 'IDAT') compressed.push(body)
    at += 12 + length
  }
  if (!header) throw new Error(`${file} has no PNG header`)
  const [width, height] = [header.readUInt32BE(0), header.readUInt32BE(4)]
  const [depth, colour, interlace] = [header[8], header[9], header[12]]
  if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0) {
    throw new Error(`${file} is a kind of PNG this test does not read (renew it: ${RENEW})`)
  }
  const channels = colour === 6 ? 4 : 3
  const pixels = unfilter(
    inflateSync(Buffer.concat(compressed)),
    width * channels,
    height,
    channels,
  )
  const rgb = new Uint8Array(width * height * 3)
  for (let i = 0; i < width * height; i++)
    rgb.set(pixels.subarray(i * channels, i * channels + 3), i * 3)
  return { width, height, rgb }
}

/** Undoes PNG's per-line filters (none, sub, up, average, Paeth). */
function unfilter(raw: Buffer, stride: number, height: number, channels: number): Uint8Array {
  const out = new Uint8Array(stride * height)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i]!
      const left = i >= channels ? out[y * stride + i - channels]! : 0
      const up = y > 0 ? out[(y - 1) * stride + i]! : 0
      const upLeft = i >= channels && y > 0 ? out[(y - 1) * stride + i - channels]! : 0
      const predicted = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter]
      if (predicted === undefined) throw new Error(`unknown PNG filter ${filter}`)
      out[y * stride + i] = (x + predicted) & 255
    }
  }
  return out
}

function paeth(left: number, up: number, upLeft: number): number {
  const p = left + up - upLeft
  const [dl, du, dul] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)]
  return dl <= du && dl <= dul ? left : du <= dul ? up : upLeft
}

/** The mean colour of each square, or null where every pixel of it is masked. */
function squares(picture: Picture, masks: Box[]): (number[] | null)[] {
  const masked = (x: number, y: number) =>
    masks.some((m) => x >= m.x && x < m.x + m.width && y >= m.y && y < m.y + m.height)
  const result: (number[] | null)[] = []
  for (let top = 0; top < picture.height; top += BLOCK) {
    for (let left = 0; left < picture.width; left += BLOCK) {
      const sum = [0, 0, 0]
      let count = 0
      for (let y = top; y < Math.min(top + BLOCK, picture.height); y++) {
        for (let x = left; x < Math.min(left + BLOCK, picture.width); x++) {
          if (masked(x, y)) continue
          for (let c = 0; c < 3; c++) sum[c]! += picture.rgb[(y * picture.width + x) * 3 + c]!
          count++
        }
      }
      result.push(count === 0 ? null : sum.map((s) => s / count))
    }
  }
  return result
}

/** Where two pictures of the same size differ, as "x,y" of each differing square's corner. */
function differences(a: Picture, b: Picture, masks: Box[]): string[] {
  expect({ width: a.width, height: a.height }).toEqual({ width: b.width, height: b.height })
  const [first, second] = [squares(a, masks), squares(b, masks)]
  const columns = Math.ceil(a.width / BLOCK)
  return first.flatMap((colour, i) => {
    const other = second[i]
    if (!colour || !other) return []
    const apart = Math.max(...colour.map((c, k) => Math.abs(c - other[k]!)))
    return apart > TOLERANCE ? [`${(i % columns) * BLOCK},${Math.floor(i / columns) * BLOCK}`] : []
  })
}

/** The places on screen that differ on every start: the built-in Sandbox's port. */
async function changingParts(page: Page): Promise<Box[]> {
  const boxes = await Promise.all(
    (await page.getByText(/127\.0\.0\.1:\d+/).all()).map((part) => part.boundingBox()),
  )
  return boxes.filter((box): box is Box => box !== null)
}

describeInChromium('README screenshot', 'the screenshot in README.md', () => {
  const { app, page } = useE2eApp(
    {
      homePrefix: 'skill-runner-shot-',
      taskMs: 50,
      // A finished run with one failed row, as after the README walk-through.
      afterConnect: async (engine, connection) => {
        const entry = await engine.submissions.journal(connection, {
          target: { kind: 'template', templateId: 'row-echo' },
          rows: [
            { message: 'Hello from the sandbox', sequence: 1 },
            { message: 'Second row', sequence: 2 },
            { message: 'This row fails on purpose [[fail]]', sequence: 3 },
          ],
        })
        const { runId } = await engine.submissions.send(connection, entry)
        await runEnded(connection, runId)
      },
      context: { viewport: SIZE },
    },
    undefined,
    120_000,
  )

  it(
    'shows every screen, and README shows the Runs screen as it is now',
    { timeout: 60_000 },
    async () => {
      await page.goto(app.mode.url)
      await page
        .getByRole('heading', { name: /Sandbox/ })
        .first()
        .waitFor()
      mkdirSync(SCREENS_DIR, { recursive: true })
      const nav = page.getByRole('navigation', { name: 'Screens' })
      for (const label of ['New run', 'History', 'Creator', 'Settings', 'Runs']) {
        await nav.getByRole('button', { name: label }).click()
        // A screen loaded on demand shows its placeholder until its code came.
        await page.locator('[data-on-demand]').waitFor({ state: 'detached' })
        await drawn(page)
        await page.screenshot({ path: join(SCREENS_DIR, `readme-${label.replace(' ', '-')}.png`) })
      }
      // The Runs screen lists the finished run.
      await page
        .getByText(/2 of 3 rows succeeded/)
        .first()
        .waitFor()
      const shot = join(SCREENS_DIR, 'readme-Runs.png')
      await page.screenshot({ path: shot })
      if (process.env.SKILL_RUNNER_UPDATE_SCREENSHOT === '1') {
        mkdirSync(join(root, 'docs'), { recursive: true })
        copyFileSync(shot, join(root, README_SCREENSHOT))
      }
      const readme = readFileSync(join(root, 'README.md'), 'utf8')
      expect(readme).toContain(`](${README_SCREENSHOT})`)
      expect(existsSync(join(root, README_SCREENSHOT))).toBe(true)
      const committed = readPng(join(root, README_SCREENSHOT))
      expect({ width: committed.width, height: committed.height }).toEqual(SIZE)
      const masks = await changingParts(page)
      expect(masks.length).toBeGreaterThan(0)
      const stale = differences(committed, readPng(shot), masks)
      const where = `${stale.length} squares of ${BLOCK} px differ, the first at x,y ${stale[0]}`
      expect(
        stale.length,
        `${README_SCREENSHOT} is out of date (${where}); renew it: ${RENEW}`,
      ).toBe(0)
      // The comparison does see a different screen.
      const history = readPng(join(SCREENS_DIR, 'readme-History.png'))
      expect(differences(committed, history, masks).length).toBeGreaterThan(0)
    },
  )
})
