/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// (The functions given to page.evaluate run in the page, hence the DOM types.)
// What the layout test measures on a screen, in the page itself: the document's size against the
// window, the header's height, which boxes scroll, the names cut with "…", badges cut or reaching
// past their box, and whether the workbook grid shows its last column.
import type { Page } from 'playwright-core'

/** Boxes that hold data of any length and scroll by their own right, as a desktop list does:
 * the workbook grid, the runs and tasks tables, previews, the list of problems, files named. */
const DATA_SCROLLERS =
  '.table-scroll, .grid-scroll, .plain-scroll, .preview-scroll, .preview-text, .error-list ul, .file-cells, .upload-list'

export interface LayoutFigures {
  viewport: { width: number; height: number }
  documentHeight: number
  bodyHeight: number
  documentWidth: number
  /** The environment's header with the screens' tabs. */
  headerHeight: number
  sidebarWidth: number
  /** Boxes in the content that scroll (or would, given more) and are not data lists. */
  scrollAreas: string[]
  /** Data lists taller than the screen's visible height (they could not be seen whole). */
  tallDataLists: string[]
  /** Elements whose text is cut with "…" now, each marked with data-layout-cut="i". */
  cut: number
  /** Badges cut, or reaching past the box they sit in. */
  badBadges: string[]
}

export function measureLayout(page: Page): Promise<LayoutFigures> {
  return page.evaluate((dataScrollers) => {
    const nameOf = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${[...el.classList].map((c) => `.${c}`).join('')}`
    const scrolls = (value: string) => value === 'auto' || value === 'scroll'
    const all = [...document.querySelectorAll('main *')]
    const scrollAreas = all.flatMap((el) => {
      const style = getComputedStyle(el)
      if (el.matches(dataScrollers)) return []
      return scrolls(style.overflowY) || scrolls(style.overflowX) ? [nameOf(el)] : []
    })
    const screen = document.querySelector('.screen')
    const room = screen?.clientHeight ?? innerHeight
    const tallDataLists = [...document.querySelectorAll(dataScrollers)].flatMap((el) =>
      el.getBoundingClientRect().height > room + 1 ? [nameOf(el)] : [],
    )
    let cut = 0
    for (const el of all) {
      el.removeAttribute('data-layout-cut')
      if (getComputedStyle(el).textOverflow !== 'ellipsis') continue
      if (el.clientWidth <= 1 || el.scrollWidth <= el.clientWidth + 1) continue
      el.setAttribute('data-layout-cut', String(cut))
      cut += 1
    }
    const badBadges = [...document.querySelectorAll('.badge, .tag')].flatMap((el) => {
      const box = el.getBoundingClientRect()
      const parent = el.parentElement?.getBoundingClientRect()
      if (!parent || parent.width <= 1 || box.width === 0) return []
      const out = box.right > parent.right + 0.5 || box.left < parent.left - 0.5
      const clipped = el.scrollWidth > el.clientWidth + 1
      return out || clipped ? [`${nameOf(el)} "${el.textContent}"`] : []
    })
    return {
      viewport: { width: innerWidth, height: innerHeight },
      documentHeight: document.documentElement.scrollHeight,
      bodyHeight: document.body.scrollHeight,
      documentWidth: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
      headerHeight: document.querySelector('.topbar')?.getBoundingClientRect().height ?? -1,
      sidebarWidth: document.querySelector('.sidebar')?.getBoundingClientRect().width ?? -1,
      scrollAreas,
      tallDataLists,
      cut,
      badBadges,
    }
  }, DATA_SCROLLERS)
}

/** Hovers every name cut with "…" and returns those that still show no tooltip. */
export async function cutWithoutTooltip(page: Page, cut: number): Promise<string[]> {
  const missing: string[] = []
  for (let i = 0; i < cut; i += 1) {
    const el = page.locator(`[data-layout-cut="${i}"]`)
    await el.scrollIntoViewIfNeeded()
    await el.hover()
    const title = await el.evaluate((node) => node.closest('[title]')?.getAttribute('title') ?? '')
    if (!title.trim()) missing.push((await el.textContent()) ?? '')
  }
  return missing
}

/**
 * Brings the workbook grid into view in the screen and scrolls it to its right end: where its
 * box sits in the window, and whether its last column then shows whole inside it.
 */
export async function gridReach(page: Page) {
  const grid = page.getByTestId('rows-grid')
  await grid.scrollIntoViewIfNeeded()
  return grid.evaluate((el) => {
    const scroller = el.closest('.grid-scroll') ?? el
    scroller.scrollLeft = scroller.scrollWidth
    const box = scroller.getBoundingClientRect()
    const last = [...el.querySelectorAll('thead th')].at(-1)!.getBoundingClientRect()
    return {
      box: { left: box.left, right: box.right, top: box.top, bottom: box.bottom },
      lastColumn: { left: last.left, right: last.right },
      scrolls: scroller.scrollWidth > scroller.clientWidth,
    }
  })
}

/** The selects (of the mapping) whose chosen option does not fit in them, as "column: choice". */
export function cutChoices(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const context = document.createElement('canvas').getContext('2d')!
    return [...document.querySelectorAll<HTMLSelectElement>('.mapping-table select')].flatMap(
      (select) => {
        const style = getComputedStyle(select)
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
        const text = select.selectedOptions[0]?.textContent ?? ''
        const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight)
        // The arrow of a closed select takes about 20 px of its width.
        const room = select.clientWidth - padding - 20
        return context.measureText(text).width > room ? [`${select.ariaLabel}: ${text}`] : []
      },
    )
  })
}
