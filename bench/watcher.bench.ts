/**
 * Watching 50 active runs for 5 minutes: requests sent by the engine's RunWatcher against the
 * simple way, one detail request per run every 2 s while the run is active.
 *
 * Time is compressed 25x so the benchmark takes 12 s: the watcher's intervals are divided by
 * 25, and the sandbox (in a child process) runs 50 runs of 5 tasks, 4 tasks at a time, 150 ms
 * each, so runs end one after another across the window. The baseline is counted from the
 * moments each run was seen to end (one request per active run per 2 simulated seconds).
 */
import { randomUUID } from 'node:crypto'
import { ApiClient } from '../src/core/service'
import { RunWatcher } from '../src/core/flows/watch/run-watcher'
import { startChildSandbox } from './support'

const SCALE = 25
const RUNS = 50
const WINDOW_SIMULATED_MS = 5 * 60_000
const WINDOW_MS = WINDOW_SIMULATED_MS / SCALE

const sandbox = await startChildSandbox(['--task-ms', '150'])
try {
  const client = new ApiClient({ baseUrl: sandbox.url, token: () => sandbox.token })
  const started = Date.now()
  const runIds: string[] = []
  for (let i = 0; i < RUNS; i += 1) {
    const rows = Array.from({ length: 5 }, (_, r) => ({
      message: `run ${i} row ${r}`,
      sequence: r,
    }))
    const answer = await client.runRows('row-echo', { clientRequestId: randomUUID(), rows })
    runIds.push(answer.runId)
  }

  const watcher = new RunWatcher(client, { minMs: 1000 / SCALE, maxMs: 15_000 / SCALE })
  const endedAt = new Map<string, number>()
  let progressEvents = 0
  watcher.on('progress', () => (progressEvents += 1))
  let requestsAtLastEnd = 0
  watcher.on('ended', (run) => {
    endedAt.set(run.runId, Date.now())
    if (endedAt.size === RUNS) requestsAtLastEnd = watcher.requests
  })
  watcher.on('error', (error) => console.error('watcher error:', error))
  for (const id of runIds) watcher.watch(id)
  // Someone has one run open on screen: its detail is fetched when it changes.
  watcher.focus(runIds[RUNS - 1]!)

  await new Promise((r) => setTimeout(r, WINDOW_MS - (Date.now() - started)))
  watcher.stop()

  const windowEnd = Date.now()
  let baseline = 0
  for (const id of runIds) {
    const activeMs = (endedAt.get(id) ?? windowEnd) - started
    baseline += Math.ceil((activeMs * SCALE) / 2000)
  }
  const naive = RUNS * (WINDOW_SIMULATED_MS / 2000)
  console.log(
    `${RUNS} runs of 5 tasks, watched for 5 simulated minutes (${WINDOW_MS / 1000} s real)`,
  )
  console.log(
    `runs ended in the window: ${endedAt.size} of ${RUNS}; progress events: ${progressEvents}`,
  )
  console.log(`RunWatcher requests:                    ${watcher.requests}`)
  console.log(`one request per active run every 2 s:   ${baseline}`)
  console.log(`one request per run every 2 s, 5 min:   ${naive}`)
  console.log(
    `${watcher.requests < baseline / 10 ? 'MET ' : 'MISS'} the watcher sends ${(baseline / Math.max(1, watcher.requests)).toFixed(1)}x fewer requests than polling each active run`,
  )
  if (endedAt.size === RUNS) {
    const quietMs = windowEnd - Math.max(...endedAt.values())
    console.log(
      `requests after the last run ended (${(quietMs / 1000).toFixed(1)} s real): ${watcher.requests - requestsAtLastEnd}`,
    )
  }
} finally {
  await sandbox.stop()
}
