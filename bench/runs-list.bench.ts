/**
 * The runs list with 10,000 runs in headless Chromium, through browser mode (the built renderer,
 * the real web server, Bridge and engine). The service behind the engine serves 10,000 run
 * summaries from memory, a page of 50 at a time as the app asks, so the figures are the window's own: the list
 * is scrolled to its end (loading every page as a user scrolling down would), then scrolled top
 * to bottom again through all 10,000 rows.
 *
 * Target (issue 11): no long task over 50 ms (PerformanceObserver 'longtask') while scrolling.
 */
import type { RunSummary } from '../src/shared/contract'
import {
  describeTasks,
  jsonAnswer,
  openBenchWindow,
  showScreen,
  scrollTableThrough,
  skipWithoutWindow,
  traceWhile,
} from './browser-bench'

const RUNS = 10_000
const TARGET_MS = 50
skipWithoutWindow()

const STATUSES = ['succeeded', 'succeeded', 'succeeded', 'failed', 'cancelled'] as const
const T0 = 1_760_000_000
const runs: RunSummary[] = Array.from({ length: RUNS }, (_, i) => {
  const status = STATUSES[i % STATUSES.length]!
  const total = 1 + (i % 40)
  const failed = status === 'failed' ? total : i % 7 === 0 ? 1 : 0
  return {
    runId: `run_${String(RUNS - i).padStart(6, '0')}`,
    displayName: `Catalogue batch ${RUNS - i}`,
    status,
    sourceType: 'official_template',
    templateKey: 'product-description-writer',
    templateName: 'Product description writer',
    templateUuid: '',
    definitionHash: '',
    inputFilename: `batch-${RUNS - i}.xlsx`,
    totalTasks: total,
    completedTasks: status === 'succeeded' ? total - failed : 0,
    failedTasks: failed,
    cancelledTasks: status === 'cancelled' ? total : 0,
    estimatedCostT: total * 5,
    actualCostT: status === 'succeeded' ? (total - failed) * 5 : 0,
    firstErrorMessage: failed ? 'Row 3: the price is not a number' : '',
    createdAtUnix: T0 - i * 60,
    startedAtUnix: T0 - i * 60 + 1,
    completedAtUnix: T0 - i * 60 + 30,
    updatedAtUnix: T0 - i * 60 + 30,
    market: undefined,
  }
})

/**
 * The service behind the engine answers from memory: 10,000 runs, paged as the real one would.
 * Only the runs list and a run's detail are asked for in this benchmark.
 */
const fakeService = (url: URL) => {
  if (url.pathname.endsWith('/users/me/runs')) {
    const start = Number(url.searchParams.get('pageToken') || 0)
    const size = Number(url.searchParams.get('pageSize') || 50)
    const items = runs.slice(start, start + size)
    const next = start + size < runs.length ? String(start + size) : ''
    return { items, nextPageToken: next, totalCount: runs.length }
  }
  const runId = decodeURIComponent(url.pathname.split('/').pop() ?? '')
  const run = runs.find((r) => r.runId === runId)
  if (run) return { run, tasks: [], artifacts: [] }
  return jsonAnswer({ error: 'not part of this benchmark' }, 404)
}

const bench = await openBenchWindow('skill-runner-bench-runs-', fakeService)
try {
  const { page, takeLongTasks } = bench
  await showScreen(page, 'Runs')
  await page.locator('tr[data-run-id]').first().waitFor()
  // Start counting once the app is up: the first load is not part of scrolling.
  await page.evaluate('window.longTasks = []')
  const nextFrame = () => page.evaluate('new Promise((r) => requestAnimationFrame(() => r(null)))')

  const table = page.locator('.table-scroll').first()
  const loaded = () => page.locator('.runs-table').getAttribute('aria-rowcount')
  const rowsInPage = () => page.locator('.runs-table tbody tr').count()

  // 1. Scroll down as a user would, a screen at a time; older runs load near the end (traced
  // into RUNS_LIST_TRACE's file with ".load" before its extension, when it names one).
  let started = performance.now()
  let maxRows = 0
  const tracePath = process.env.RUNS_LIST_TRACE
  // A traced page runs slower: it is given longer to load every run.
  const limitMs = tracePath ? 480_000 : 240_000
  await traceWhile(bench, tracePath?.replace(/(\.json)?$/, '.load$1'), TARGET_MS, async () => {
    for (let step = 0; ; step += 1) {
      const count = Number(await loaded()) - 1
      if (count >= RUNS) break
      await table.evaluate((el) => el.scrollBy(0, el.clientHeight))
      await nextFrame()
      if (step % 20 === 0) maxRows = Math.max(maxRows, await rowsInPage())
      if (performance.now() - started > limitMs)
        throw new Error(`only ${count} runs loaded after ${limitMs / 60_000} min`)
    }
  })
  const loadSeconds = (performance.now() - started) / 1000
  const loadTasks = await takeLongTasks()

  // 2. The whole list again, top to bottom, 600 px per frame (traced when RUNS_LIST_TRACE names
  // a file: then where the main thread's time went is printed for each phase).
  started = performance.now()
  const frames = await scrollTableThrough(bench, 600, tracePath, TARGET_MS)
  const scrollSeconds = (performance.now() - started) / 1000
  maxRows = Math.max(maxRows, await rowsInPage())
  const scrollTasks = await takeLongTasks()
  const lastRow = await page.locator('.runs-table tbody tr').last().getAttribute('data-run-id')

  // For scale: long tasks in the same page while nothing happens (a busy machine shows some).
  await page.waitForTimeout(5000)
  const idleTasks = await takeLongTasks()

  console.log(`${RUNS} runs loaded by scrolling in ${loadSeconds.toFixed(1)} s (pages of 50)`)
  console.log(`long tasks while loading and scrolling: ${describeTasks(loadTasks)}`)
  console.log(
    `scrolled all ${RUNS} runs top to bottom: ${frames} frames in ${scrollSeconds.toFixed(1)} s, last row ${lastRow}`,
  )
  console.log(`long tasks while scrolling the full list: ${describeTasks(scrollTasks)}`)
  console.log(`rows in the page at most: ${maxRows} (virtualized)`)
  console.log(`for scale, long tasks in 5 s of doing nothing: ${describeTasks(idleTasks)}`)
  const all = [...loadTasks, ...scrollTasks]
  const longest = all.length ? Math.max(...all) : 0
  console.log(
    `${all.length === 0 ? 'MET ' : 'MISS'} runs list of ${RUNS} runs scrolled with no long task over ${TARGET_MS} ms (target, issue 11): ${all.length} long tasks${all.length ? `, longest ${longest.toFixed(0)} ms` : ''}`,
  )
} finally {
  await bench.close()
}
