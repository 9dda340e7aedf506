/**
 * The engine of the big-run benchmark in a process of its own (so its peak memory is its own):
 * the engine as the app makes it, connected to the sandbox named by BIG_RUN_SANDBOX_URL, served
 * to a browser by browser mode. Prints `app at URL` once ready. Every request the engine sends
 * to the service is counted by method and path (ids folded); a line `counts` on stdin prints
 * the counts so far as one JSON line, `reset` starts counting again, `saved RUN` prints how many
 * of a run's outputs the history knows saved, `phase NAME` names what the memory samples that
 * follow belong to, `heap` prints the JavaScript heap's peaks by phase, `pauses` the longest the
 * engine's thread was held by phase, `looks` how long each read of a run's detail took (from
 * the request to the answer's last byte, read as the engine reads it: parsed and stored as it
 * comes; under `first byte PHASE`, until the answer's first byte), by phase, `bridge VERB ARGS` calls a Bridge verb as the desktop window does (over IPC,
 * where a file goes by its path) and prints `bridge ANSWER`, `quit` stops. BIG_RUN_PART_ROWS sets the environment's rows per request, as
 * `skill-runner env rows` does, so a larger sheet is planned in parts of that size.
 * BIG_RUN_ALLOC_PROF=FILE writes what was allocated while the sheet was sent (or in the phases
 * whose names start with BIG_RUN_ALLOC_PHASE), garbage included,
 * as a .heapprofile; BIG_RUN_SNAPSHOT_OVER_MB=N one heap snapshot when N MB are first in use.
 * BIG_RUN_EXTERNAL_PROBE=N collects the garbage whenever V8's external memory passes N MB and
 * prints it before and after (with BIG_RUN_EXTERNAL_SNAPSHOT=1, one heap snapshot the first time
 * N MB are still held after a collection: its ArrayBuffers' retainers name who holds them).
 * BIG_RUN_READS_TRACE=1 prints each read of a run's detail on stderr as it starts (with who
 * asked: the first frames of its stack) and ends: reads of one run under way at once show there.
 */
import { createInterface } from 'node:readline'
import { join } from 'node:path'
import { setFlagsFromString, writeHeapSnapshot } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { Session } from 'node:inspector'
import { writeFileSync } from 'node:fs'
import { createEngine } from '../src/core/engine'
import { MemorySecretStore } from '../src/core/secrets'
import {
  nodeHttpFetcher,
  type FetchLike,
  type HttpAnswer,
  type HttpInit,
} from '../src/core/service'
import { createDispatch } from '../src/shared/bridge'
import { startBrowserMode } from '../src/web/app'
import { rendererDir } from '../test/e2e/support'

const baseUrl = process.env.BIG_RUN_SANDBOX_URL ?? ''
const home = process.env.BIG_RUN_HOME ?? ''
if (!baseUrl || !home) throw new Error('BIG_RUN_SANDBOX_URL and BIG_RUN_HOME are required')

const counts = new Map<string, number>()
/** What the engine is doing, as the benchmark names it (`phase NAME`). */
let phase = 'start'
/** "GET /runs/{id}" from a request, ids folded so that requests of a kind add up. */
function kindOf(input: string, init?: HttpInit): string {
  const path = new URL(input).pathname
    .split('/')
    .map((part) => (/\d/.test(part) && part.length > 8 ? '{id}' : part))
    .join('/')
  return `${init?.method ?? 'GET'} ${path}`
}
/** How long each read of a run's detail took (ms), by the phase it began in. */
const looks = new Map<string, number[]>()
/** The answer, its body timed from the request until its last byte is taken. */
function timed(answer: HttpAnswer, startedMs: number, during: string, traced?: string): HttpAnswer {
  if (!answer.body) return answer
  const end = new TransformStream<Uint8Array, Uint8Array>({
    flush() {
      if (traced) console.error(`${traced} ended @${(performance.now() / 1000).toFixed(2)} s`)
      const list = looks.get(during) ?? []
      list.push(Math.round(performance.now() - startedMs))
      looks.set(during, list)
    },
  })
  const body = answer.body.pipeThrough(end)
  return { status: answer.status, ok: answer.ok, headers: answer.headers, body }
}
// The engine's own HTTP client (what browser mode uses), with every request counted on its way.
const ownClient = nodeHttpFetcher()
const countingFetch: FetchLike = async (input, init) => {
  const kind = kindOf(input, init)
  counts.set(kind, (counts.get(kind) ?? 0) + 1)
  if (!/^GET .*\/runs\/\{id\}$/.test(kind)) return ownClient(input, init)
  const during = phase
  const startedMs = performance.now()
  const traced = process.env.BIG_RUN_READS_TRACE ? traceRead(input, startedMs) : undefined
  const answer = await ownClient(input, init)
  // The service's own share: until the answer's first byte (the sandbox builds it whole first).
  const waits = looks.get(`first byte ${during}`) ?? []
  waits.push(Math.round(performance.now() - startedMs))
  looks.set(`first byte ${during}`, waits)
  return timed(answer, startedMs, during, traced)
}

let readsTraced = 0
/** BIG_RUN_READS_TRACE: says a read of a run's detail started, and who asked; answers its tag. */
function traceRead(input: string, startedMs: number): string {
  const tag = `read ${(readsTraced += 1)}`
  const asker = (new Error().stack ?? '')
    .split('\n')
    .slice(3, 10)
    .map((frame) =>
      frame
        .trim()
        .replace(/^at /, '')
        .replace(/ \(.*$/, ''),
    )
    .join(' < ')
  const run = new URL(input).pathname.split('/').pop()
  console.error(`${tag} of ${run} started @${(startedMs / 1000).toFixed(2)} s: ${asker}`)
  return tag
}

const engine = createEngine({
  home: join(home, 'home'),
  secretStore: new MemorySecretStore(),
  tokenOverride: 'sandbox-demo-token',
  fetch: countingFetch,
})
await engine.addEnvironment({ name: 'Bench', baseUrl, token: 'sandbox-demo-token' })
engine.useEnvironment('Bench')
const partRows = Number(process.env.BIG_RUN_PART_ROWS ?? 0)
if (partRows > 0)
  engine.rowLimits.set((await engine.connect({ env: 'Bench' })).historyKey, partRows)
const mode = await startBrowserMode({
  engine,
  app: { name: 'Skill Runner', version: 'bench', platform: process.platform },
  rendererDir,
})
console.log(`app at ${mode.url}`)
/** The same Bridge service as the page's, reached as the desktop window reaches it. */
const dispatch = createDispatch(mode.service.handlers)

/** The JavaScript heap's peaks (MB) by phase: what V8 holds, garbage included, apart from code. */
const heapPeaks = new Map<string, { heapTotal: number; heapUsed: number; external: number }>()
/**
 * The longest the engine's thread kept the sampler waiting past its 200 ms, by phase (ms): work
 * that holds the thread that long also stalls every Bridge call and the page's updates.
 */
const pauses = new Map<string, number>()
let lastLook = performance.now()
/** BIG_RUN_SNAPSHOT_OVER_MB=N: one heap snapshot (in the working folder) the first time N MB are used. */
const snapshotOverMb = Number(process.env.BIG_RUN_SNAPSHOT_OVER_MB ?? 0)
let snapshotTaken = false
/**
 * BIG_RUN_EXTERNAL_PROBE=N: each time V8's external memory (ArrayBuffers) passes N MB, a full
 * collection, and the external memory before and after it printed: garbage not yet collected, or
 * buffers something still holds.
 */
const probeOverMb = Number(process.env.BIG_RUN_EXTERNAL_PROBE ?? 0)
let collect: (() => void) | undefined
function probeExternal(external: number) {
  if (!(probeOverMb > 0) || external < probeOverMb * 1048576) return
  if (!collect) {
    setFlagsFromString('--expose-gc')
    collect = runInNewContext('gc') as () => void
  }
  collect()
  const after = process.memoryUsage()
  if (
    process.env.BIG_RUN_EXTERNAL_SNAPSHOT &&
    !snapshotTaken &&
    after.external >= probeOverMb * 1048576
  ) {
    snapshotTaken = true
    console.error(
      `heap snapshot with external ${Math.round(after.external / 1048576)} MB: ${writeHeapSnapshot()}`,
    )
  }
  console.error(
    `external ${Math.round(external / 1048576)} MB in ${phase}; after a full collection ${Math.round(after.external / 1048576)} MB (array buffers ${Math.round(after.arrayBuffers / 1048576)})`,
  )
}
const heapSampler = setInterval(() => {
  const now = performance.now()
  pauses.set(phase, Math.max(pauses.get(phase) ?? 0, Math.round(now - lastLook - 200)))
  lastLook = now
  const { heapTotal, heapUsed, external } = process.memoryUsage()
  probeExternal(external)
  if (snapshotOverMb > 0 && !snapshotTaken && heapUsed > snapshotOverMb * 1024 * 1024) {
    snapshotTaken = true
    console.error(
      `heap snapshot at ${Math.round(heapUsed / 1048576)} MB used: ${writeHeapSnapshot()}`,
    )
  }
  const peak = heapPeaks.get(phase) ?? { heapTotal: 0, heapUsed: 0, external: 0 }
  const mb = (bytes: number) => Math.round(bytes / 1024 / 1024)
  heapPeaks.set(phase, {
    heapTotal: Math.max(peak.heapTotal, mb(heapTotal)),
    heapUsed: Math.max(peak.heapUsed, mb(heapUsed)),
    external: Math.max(peak.external, mb(external)),
  })
}, 200)

/**
 * BIG_RUN_ALLOC_PROF=FILE: what the engine allocated while the sheet was sent, garbage included
 * (V8's sampling heap profiler, one sample per 64 KB), written to FILE as a .heapprofile.
 */
const allocProfile = process.env.BIG_RUN_ALLOC_PROF
/** The phase profiled: the first whose name starts with BIG_RUN_ALLOC_PHASE (else sending). */
const allocPhase = process.env.BIG_RUN_ALLOC_PHASE ?? 'sending'
let inspector: Session | undefined
let allocProfiled = false
async function allocationProfile(now: string) {
  if (!allocProfile) return
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      inspector!.post(method, params, (error, answer) => (error ? reject(error) : resolve(answer))),
    )
  if (now.startsWith(allocPhase) && !inspector && !allocProfiled) {
    inspector = new Session()
    inspector.connect()
    await post('HeapProfiler.startSampling', {
      samplingInterval: 65536,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    })
  } else if (inspector && !now.startsWith(allocPhase)) {
    const { profile } = (await post('HeapProfiler.stopSampling')) as { profile: unknown }
    writeFileSync(allocProfile, JSON.stringify(profile))
    inspector.disconnect()
    inspector = undefined
    allocProfiled = true
  }
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'counts') console.log(`counts ${JSON.stringify(Object.fromEntries(counts))}`)
  else if (line === 'reset') counts.clear()
  else if (line.startsWith('phase ')) {
    phase = line.slice(6)
    await allocationProfile(phase)
  } else if (line === 'heap') console.log(`heap ${JSON.stringify(Object.fromEntries(heapPeaks))}`)
  else if (line.startsWith('bridge ')) {
    const [, verb = '', args = '{}'] = /^bridge (\S+) (.*)$/.exec(line) ?? []
    const answer = await dispatch(verb, JSON.parse(args), { transport: 'ipc' })
    console.log(`bridge ${JSON.stringify(answer)}`)
  } else if (line === 'looks') console.log(`looks ${JSON.stringify(Object.fromEntries(looks))}`)
  else if (line === 'pauses') console.log(`pauses ${JSON.stringify(Object.fromEntries(pauses))}`)
  else if (line.startsWith('saved ')) {
    const { historyKey } = await engine.connect({ env: 'Bench' })
    console.log(`saved ${engine.history.savedFileCount(historyKey, line.slice(6))}`)
  } else if (line === 'quit') break
}
clearInterval(heapSampler)
// Open connections (the page's socket) must not keep the host alive once asked to stop.
await Promise.race([
  mode.close().then(() => engine.close()),
  new Promise((r) => setTimeout(r, 5000)),
])
process.exit(0)
