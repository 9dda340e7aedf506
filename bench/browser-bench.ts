/**
 * What the window benchmarks share: an engine on a service answered from memory, the built
 * renderer in browser mode, headless Chromium with long tasks counted, and a trace's reading.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { createEngine, type Engine } from '../src/core/engine'
import { MemorySecretStore } from '../src/core/secrets'
import { startBrowserMode } from '../src/web/app'
import { root } from './support'

const CHROMIUM = process.env.SKILL_RUNNER_CHROMIUM ?? '/usr/bin/chromium'
const rendererDir = join(root, 'out', 'renderer')
/** The environment the window benches add, and the key its data is filed under. */
export const BENCH_ENVIRONMENT = { name: 'Bench', baseUrl: 'https://bench.invalid' }
export const BENCH_HISTORY_KEY = new URL(BENCH_ENVIRONMENT.baseUrl).origin

/** Exits with SKIP when the renderer is not built or there is no Chromium. */
export function skipWithoutWindow(): void {
  if (!existsSync(join(rendererDir, 'index.html'))) {
    console.log('SKIP the renderer is not built: run `npx electron-vite build` first.')
    process.exit(0)
  }
  if (!existsSync(CHROMIUM)) {
    console.log(`SKIP no Chromium at ${CHROMIUM}.`)
    process.exit(0)
  }
}

/** A service answering from memory, as the engine's fetch. */
export type BenchService = (url: URL) => unknown

export const jsonAnswer = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

export interface BenchWindow {
  engine: Engine
  page: Page
  browser: Browser
  /** Long tasks (ms) seen since the last call. */
  takeLongTasks(): Promise<number[]>
  close(): Promise<void>
}

/**
 * An engine in a fresh home on the "Bench" environment answered by `service` (`seed` fills its
 * history first), browser mode on the built renderer, and a 1280x900 page that counts long tasks.
 */
export async function openBenchWindow(
  prefix: string,
  service: BenchService,
  seed?: (home: string) => void,
): Promise<BenchWindow> {
  const home = mkdtempSync(join(tmpdir(), prefix))
  seed?.(home)
  const fetch = async (input: string | URL | Request): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    const answer = service(url)
    return answer instanceof Response ? answer : jsonAnswer(answer)
  }
  const engine = createEngine({ home, secretStore: new MemorySecretStore(), fetch })
  await engine.addEnvironment({ ...BENCH_ENVIRONMENT, token: 'bench' })
  engine.useEnvironment(BENCH_ENVIRONMENT.name)
  const mode = await startBrowserMode({
    engine,
    app: { name: 'Skill Runner', version: 'bench', platform: process.platform },
    rendererDir,
  })
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  })
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
  // Page-side code is given as text: this file is type-checked for Node, not for a window.
  await page.addInitScript(`
    window.longTasks = []
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.longTasks.push(entry.duration)
    }).observe({ type: 'longtask', buffered: true })
  `)
  await page.goto(mode.url)
  return {
    engine,
    page,
    browser,
    takeLongTasks: () => page.evaluate('window.longTasks.splice(0)') as Promise<number[]>,
    async close() {
      await browser.close()
      await mode.close()
      await engine.close()
      rmSync(home, { recursive: true, force: true })
    },
  }
}

/** "none", or how many and the longest. */
export function describeTasks(tasks: number[]): string {
  return tasks.length === 0
    ? 'none'
    : `${tasks.length}, longest ${Math.max(...tasks).toFixed(0)} ms`
}

/**
 * Scrolls the page's first `.table-scroll` from top to bottom, `step` px a frame; the number of
 * frames. Traced when `tracePath` is given: then where the main thread's time went is printed.
 */
export async function scrollTableThrough(
  window: BenchWindow,
  step: number,
  tracePath: string | undefined,
  targetMs: number,
): Promise<number> {
  return traceWhile(window, tracePath, targetMs, async () => {
    return (await window.page.evaluate(`(async () => {
      const el = document.querySelector('.table-scroll')
      el.scrollTo(0, 0)
      let n = 0
      while (el.scrollTop + el.clientHeight < el.scrollHeight - 1) {
        el.scrollBy(0, ${step})
        n += 1
        await new Promise((r) => requestAnimationFrame(() => r(null)))
      }
      return n
    })()`)) as number
  })
}

/**
 * Does `work`, traced in Chromium when `tracePath` is given: then where the page's main thread
 * spent its time is printed (see printTrace).
 */
export async function traceWhile<T>(
  window: BenchWindow,
  tracePath: string | undefined,
  targetMs: number,
  work: () => Promise<T>,
): Promise<T> {
  const { page, browser } = window
  if (!tracePath) return work()
  await browser.startTracing(page, { path: tracePath, categories: TIMELINE })
  const result = await work()
  printTrace(await browser.stopTracing(), targetMs)
  return result
}

/** One event of a Chromium trace, as far as these benches read it. */
interface TraceEvent {
  name: string
  ph: string
  dur?: number
  tdur?: number
  ts: number
  pid: number
  tid: number
  args?: {
    name?: string
    elementCount?: number
    data?: { functionName?: string; url?: string; lineNumber?: number }
    beginData?: { dirtyObjects?: number; totalObjects?: number }
  }
}

/** The trace categories that tell a page's tasks and what they did. */
export const TIMELINE = ['devtools.timeline', 'disabled-by-default-devtools.timeline']

/** Main-thread time by kind of work, and the makeup of tasks over the target, from a trace. */
export function printTrace(buffer: Buffer, targetMs: number) {
  const events = (JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
  if (!main) return
  const mine = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X')
  const tasks = mine.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) > targetMs * 1000)
  const kinds = [
    'FunctionCall',
    'UpdateLayoutTree',
    'Layout',
    'Paint',
    'PrePaint',
    'Layerize',
    'HitTest',
    'ParseHTML',
    'MajorGC',
    'MinorGC',
    'EventDispatch',
    'TimerFire',
    'FireAnimationFrame',
    'UpdateLayer',
    'Commit',
  ]
  // An event inside another of its name (a paint within a paint) is counted once, in the outer.
  const sum = (list: TraceEvent[], name: string) => {
    let end = -1
    let us = 0
    for (const e of list.filter((x) => x.name === name).sort((a, b) => a.ts - b.ts)) {
      if (e.ts < end) continue
      end = e.ts + (e.dur ?? 0)
      us += e.tdur ?? e.dur ?? 0
    }
    return us / 1000
  }
  const all = mine.filter((e) => e.name === 'RunTask')
  const total = all.reduce((t, e) => t + (e.tdur ?? e.dur ?? 0), 0)
  const overOnThread = all.filter((e) => (e.tdur ?? 0) > targetMs * 1000).length
  console.log(
    `trace: main thread busy ${(total / 1000).toFixed(0)} ms of its own time in tasks; ${tasks.length} tasks over ${targetMs} ms by the clock, ${overOnThread} by the thread's own time`,
  )
  for (const kind of kinds) {
    const ms = sum(mine, kind)
    if (ms > 1) console.log(`  ${kind}: ${ms.toFixed(0)} ms`)
  }
  // On a shared machine the clock counts other processes' time too: the tasks that held the
  // thread longest by its own time are where the page's work is.
  const heaviest = [...all].sort((a, b) => (b.tdur ?? 0) - (a.tdur ?? 0)).slice(0, 5)
  for (const task of heaviest) {
    const inside = mine.filter(
      (e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + (task.dur ?? 0),
    )
    const parts = kinds
      .map((kind) => [kind, sum(inside, kind)] as const)
      .filter(([, ms]) => ms > 1)
      .map(([kind, ms]) => `${kind} ${ms.toFixed(0)}`)
    console.log(
      `  task of ${((task.tdur ?? 0) / 1000).toFixed(0)} ms its own (${((task.dur ?? 0) / 1000).toFixed(0)} ms by the clock): ${parts.join(', ')}${taskDetail(inside)}`,
    )
  }
}

/** What a task's script, style and layout were: the longest call, elements styled, objects laid out. */
function taskDetail(inside: TraceEvent[]): string {
  const own = (e: TraceEvent) => e.tdur ?? e.dur ?? 0
  const longest = (name: string) =>
    inside.filter((e) => e.name === name).sort((a, b) => own(b) - own(a))[0]
  const call = longest('FunctionCall')?.args?.data
  const style = inside.filter((e) => e.name === 'UpdateLayoutTree')
  const layout = inside.filter((e) => e.name === 'Layout')
  const words = [
    call && `script ${call.functionName || '(anonymous)'} ${call.url?.split('/').pop() ?? ''}:${call.lineNumber ?? ''}`,
    style.length && `${style.reduce((n, e) => n + (e.args?.elementCount ?? 0), 0)} elements styled`,
    layout.length &&
      `${layout.reduce((n, e) => n + (e.args?.beginData?.dirtyObjects ?? 0), 0)} objects laid out`,
  ].filter(Boolean)
  return words.length ? `; ${words.join(', ')}` : ''
}

/** Opens one of the window's screens by its tab ("Runs", "History"), as a user would. */
export async function showScreen(page: BenchWindow['page'], name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name }).click()
}
