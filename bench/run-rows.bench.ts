/**
 * A run of 50,000 rows on its page in headless Chromium, through browser mode (the built renderer,
 * the real web server, Bridge and engine). The service behind the engine answers the run's detail
 * from memory (50,000 tasks, 500 failed, one small inline output each); the engine stores it and
 * the page asks for windows of rows as it scrolls. The Rows table is scrolled top to bottom.
 *
 * Target (issue 33): the page scrolls its rows with no long task over 50 ms.
 */
import type { RunDetail, RunSummary } from '../src/shared/contract'
import {
  describeTasks,
  jsonAnswer,
  openBenchWindow,
  showScreen,
  scrollTableThrough,
  skipWithoutWindow,
} from './browser-bench'

const ROWS = 50_000
const FAILED = 500
const TARGET_MS = 50
skipWithoutWindow()

const T0 = 1_760_000_000
const run: RunSummary = {
  runId: 'run_big',
  displayName: 'Catalogue of 50,000 products',
  status: 'succeeded',
  sourceType: 'official_template',
  templateKey: 'product-description-writer',
  templateName: 'Product description writer',
  templateUuid: '',
  definitionHash: '',
  inputFilename: 'catalogue.xlsx',
  totalTasks: ROWS,
  completedTasks: ROWS - FAILED,
  failedTasks: FAILED,
  cancelledTasks: 0,
  estimatedCostT: ROWS * 5,
  actualCostT: (ROWS - FAILED) * 5,
  firstErrorMessage: 'Row 3: the price is not a number',
  createdAtUnix: T0,
  startedAtUnix: T0 + 1,
  completedAtUnix: T0 + 3600,
  updatedAtUnix: T0 + 3600,
  market: undefined,
}
const failed = (i: number) => i % (ROWS / FAILED) === 3
const detail: RunDetail = {
  run,
  market: undefined,
  tasks: Array.from({ length: ROWS }, (_, i) => ({
    taskId: `task_${i}`,
    status: failed(i) ? 'failed' : 'succeeded',
    sourceRowIndex: i,
    artifactCount: failed(i) ? 0 : 1,
    errorMessage: failed(i) ? `Row ${i + 1}: the price is not a number` : '',
  })),
  artifacts: Array.from({ length: ROWS }, (_, i) => i)
    .filter((i) => !failed(i))
    .map((i) => ({
      artifactId: `out_${i}`,
      taskId: `task_${i}`,
      stepId: 'write',
      portName: 'description',
      sourceRowIndex: i,
      mimeType: 'text/plain',
      accessUrl: '',
      inlineText: `A fine product, number ${i}.`,
      createdAtUnix: T0 + 60,
    })),
}
const detailText = JSON.stringify(detail)

const fakeService = (url: URL) => {
  if (url.pathname.endsWith('/users/me/runs'))
    return { items: [run], nextPageToken: '', totalCount: 1 }
  if (url.pathname.endsWith(`/runs/${run.runId}`))
    return new Response(detailText, { headers: { 'content-type': 'application/json' } })
  return jsonAnswer({ error: 'not part of this benchmark' }, 404)
}

const bench = await openBenchWindow('skill-runner-bench-run-rows-', fakeService)
try {
  const { page, takeLongTasks } = bench
  await showScreen(page, 'Runs')
  let started = performance.now()
  await page.locator(`tr[data-run-id="${run.runId}"]`).locator('button.run-name').click()
  await page.locator('.tasks-table tbody tr[data-task-id]').first().waitFor({ timeout: 120_000 })
  const openSeconds = (performance.now() - started) / 1000
  const openTasks = await takeLongTasks()

  // Scrolled top to bottom, 1,200 px per frame (traced when RUN_ROWS_TRACE names a file).
  started = performance.now()
  const frames = await scrollTableThrough(bench, 1200, process.env.RUN_ROWS_TRACE, TARGET_MS)
  const scrollSeconds = (performance.now() - started) / 1000
  await page
    .locator(`.tasks-table tbody tr[data-task-id="task_${ROWS - 1}"]`)
    .waitFor({ timeout: 30_000 })
  const scrollTasks = await takeLongTasks()
  const inPage = await page.locator('.tasks-table tbody tr').count()

  await page.waitForTimeout(5000)
  const idleTasks = await takeLongTasks()

  console.log(
    `run of ${ROWS} rows opened in ${openSeconds.toFixed(1)} s (detail of ${(detailText.length / 1e6).toFixed(1)} MB, stored by the engine); long tasks meanwhile: ${describeTasks(openTasks)}`,
  )
  console.log(
    `scrolled all ${ROWS} rows top to bottom: ${frames} frames in ${scrollSeconds.toFixed(1)} s, last row shown; rows in the page: ${inPage}`,
  )
  console.log(`for scale, long tasks in 5 s of doing nothing: ${describeTasks(idleTasks)}`)
  const longest = scrollTasks.length ? Math.max(...scrollTasks) : 0
  console.log(
    `${scrollTasks.length === 0 ? 'MET ' : 'MISS'} a run of ${ROWS} rows scrolls its rows with no long task over ${TARGET_MS} ms (target, issue 33): ${scrollTasks.length} long tasks${scrollTasks.length ? `, longest ${longest.toFixed(0)} ms` : ''}`,
  )
} finally {
  await bench.close()
}
