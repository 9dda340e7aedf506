/**
 * Figures of the big-run benchmark that take more than a line to read: the engine's memory in the
 * allocator's heap (from /proc), and how much of each long task in the page was the page's own
 * work (BIG_RUN_TRACE=1).
 */
import { readFileSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'

/**
 * What a process holds in the main allocator's heap ([heap] in /proc, MB): what native code,
 * Buffers and the database allocate, apart from the JavaScript heap.
 */
export function allocatorHeapMb(pid: number): number {
  const smaps = readFileSync(`/proc/${pid}/smaps`, 'utf8')
  const at = smaps.indexOf(' [heap]\n')
  return at < 0 ? 0 : Number(/Rss:\s+(\d+)/.exec(smaps.slice(at))?.[1] ?? 0) / 1024
}

/** The browser's record of each task of the page's main thread (Chrome's trace format). */
const TASK_CATEGORIES = ['disabled-by-default-devtools.timeline']

export function startTaskTrace(browser: Browser, page: Page): Promise<void> {
  return browser.startTracing(page, { categories: TASK_CATEGORIES })
}

interface TraceEvent {
  ph: string
  name: string
  pid: number
  tid: number
  dur?: number
  tdur?: number
  args?: { name?: string }
}

/**
 * The page's tasks over `overMs` since startTaskTrace, each with its wall time and its thread
 * time. A long task is measured in wall time: with more runnable threads than cores, the page's
 * thread waits for a core in the middle of a task, and a few milliseconds of work last a hundred.
 * Thread time is what the page's code and rendering took.
 */
export async function longTasksWithCpu(
  browser: Browser,
  overMs: number,
): Promise<{ wallMs: number; cpuMs: number }[]> {
  const events = taskEvents(await browser.stopTracing())
  const page = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  )
  return events
    .filter(
      (e) =>
        e.ph === 'X' &&
        e.name === 'RunTask' &&
        page.has(`${e.pid}:${e.tid}`) &&
        (e.dur ?? 0) > overMs * 1000,
    )
    .map((e) => ({ wallMs: (e.dur ?? 0) / 1000, cpuMs: (e.tdur ?? 0) / 1000 }))
}

/**
 * The tasks and thread names of a trace, read line by line (the browser writes one event a
 * line): minutes of trace are more text than one string may hold.
 */
function taskEvents(trace: Buffer): TraceEvent[] {
  const events: TraceEvent[] = []
  for (let start = 0; start < trace.length;) {
    const end = trace.indexOf(10, start)
    const line = trace.subarray(start, end < 0 ? trace.length : end)
    start = end < 0 ? trace.length : end + 1
    if (!line.includes('"RunTask"') && !line.includes('"thread_name"')) continue
    events.push(JSON.parse(line.toString('utf8').replace(/,\s*$/, '')) as TraceEvent)
  }
  return events
}

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
}

/**
 * A sampling profile of the page's JavaScript (BIG_RUN_PAGE_PROF=1), to name what a long task
 * spends its time on. `stop` returns, for each stretch of 50 ms or more in which every sample
 * was busy, its length, its time in samples and the functions that took most of it (self time
 * in samples, ms, at file:line).
 */
export async function startPageProfile(page: Page): Promise<() => Promise<string[]>> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: SAMPLE_US })
  await cdp.send('Profiler.start')
  return async () => {
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as {
      profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }
    }
    await cdp.detach()
    return busyStretches(profile, 50_000)
  }
}

/** The profile's sampling interval (µs): self time is counted in samples, not in wall time. */
const SAMPLE_US = 200

function busyStretches(
  profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] },
  overUs: number,
): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const idle = (id: number) => {
    const name = byId.get(id)?.callFrame.functionName
    return name === '(idle)' || name === '(program)'
  }
  const out: string[] = []
  let start = -1
  let at = 0
  const self = new Map<string, number>()
  const close = (end: number) => {
    if (start >= 0 && end - start >= overUs) {
      const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 8)
      const names = top.map(([f, us]) => `${f} ${(us / 1000).toFixed(0)}`).join(', ')
      const cpu = [...self.values()].reduce((a, b) => a + b, 0) / 1000
      out.push(
        `busy ${((end - start) / 1000).toFixed(0)} ms (sampled ${cpu.toFixed(0)} ms) @${(start / 1000).toFixed(0)}: ${names}`,
      )
    }
    start = -1
    self.clear()
  }
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0
    at += delta
    const id = profile.samples[i]!
    if (idle(id)) {
      close(at)
      continue
    }
    if (start < 0) start = at
    const frame = byId.get(id)!.callFrame
    const where = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber + 1}`
    // A sample is taken only while the thread runs: counting samples, a stretch in which the
    // thread waited for a core is not charged to the function it was in.
    self.set(where, (self.get(where) ?? 0) + SAMPLE_US)
  }
  close(at)
  return out
}
