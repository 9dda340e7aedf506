/**
 * The engine's process of batch-results.bench.ts: the engine on a history the bench seeded, the
 * service answered from a generator (each part's detail streamed, never held), one results
 * workbook written; answers its figures as one line of JSON, its peak RSS from /proc.
 */
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createEngine } from '../src/core/engine'
import { writeResultsWorkbook } from '../src/core/flows/results/results'
import { MemorySecretStore } from '../src/core/secrets'
import type { Artifact, RunSummary, RunTask } from '../src/shared/contract'

export const BENCH_ORIGIN = 'https://bench.invalid'
export const partRunId = (p: number) => `run_part_${p}`

const filler = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(33)
/** Sheet row n + 2: about 1.9 KB, as big-run.bench.ts's sheet. */
export const benchRow = (n: number) => ({
  message: `Message number ${n}`,
  details: `${filler}row ${n}`,
  sequence: n,
})

const T0 = 1_760_000_000

function summary(p: number, rows: number): RunSummary {
  return {
    runId: partRunId(p),
    displayName: 'big-run.csv',
    status: 'succeeded',
    sourceType: 'official_template',
    templateKey: 'row-echo',
    templateName: 'Row echo',
    templateUuid: '',
    definitionHash: '',
    inputFilename: 'big-run.csv',
    totalTasks: rows,
    completedTasks: rows,
    failedTasks: 0,
    cancelledTasks: 0,
    estimatedCostT: rows,
    actualCostT: rows,
    firstErrorMessage: '',
    createdAtUnix: T0,
    startedAtUnix: T0 + 1,
    completedAtUnix: T0 + 600,
    updatedAtUnix: T0 + 600,
    market: undefined,
  }
}

/** A part's detail as pieces of JSON text, a few hundred tasks or outputs a piece. */
function* detailText(p: number, first: number, rows: number): Generator<string> {
  yield `{"run":${JSON.stringify(summary(p, rows))},"tasks":[`
  const task = (i: number): RunTask => ({
    taskId: `task_${p}_${i}`,
    status: 'succeeded',
    sourceRowIndex: i,
    artifactCount: 1,
    errorMessage: '',
  })
  const output = (i: number): Artifact => ({
    artifactId: `out_${p}_${i}`,
    taskId: `task_${p}_${i}`,
    stepId: 'echo',
    portName: 'row',
    sourceRowIndex: i,
    mimeType: 'application/json',
    accessUrl: '',
    inlineText: JSON.stringify(benchRow(first + i), null, 2),
    createdAtUnix: T0 + 60,
  })
  for (const [list, item] of [
    ['tasks', task],
    ['artifacts', output],
  ] as const) {
    if (list === 'artifacts') yield '],"artifacts":['
    for (let at = 0; at < rows; at += 200) {
      const end = Math.min(rows, at + 200)
      const items = Array.from({ length: end - at }, (_, k) => JSON.stringify(item(at + k)))
      yield `${at === 0 ? '' : ','}${items.join(',')}`
    }
  }
  yield ']}'
}

function streamed(pieces: Generator<string>): Response {
  const encoder = new TextEncoder()
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = pieces.next()
      if (next.done) controller.close()
      else controller.enqueue(encoder.encode(next.value))
    },
  })
  return new Response(body, { headers: { 'content-type': 'application/json' } })
}

function peakMb(): number {
  const status = readFileSync('/proc/self/status', 'utf8')
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
}

async function main(home: string, out: string) {
  const rows = Number(process.env.BATCH_RESULTS_ROWS)
  const part = Number(process.env.BATCH_RESULTS_PART)
  const fetch = async (input: string | URL | Request): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    const p = Number(/\/runs\/run_part_(\d+)$/.exec(url.pathname)?.[1] ?? -1)
    if (p < 0) return Response.json({ error: 'not part of this benchmark' }, { status: 404 })
    return streamed(detailText(p, p * part, Math.min(part, rows - p * part)))
  }
  const engine = createEngine({ home, secretStore: new MemorySecretStore(), fetch })
  await engine.addEnvironment({ name: 'Bench', baseUrl: BENCH_ORIGIN, token: 'bench' })
  const connection = await engine.connect({ env: 'Bench' })
  const path = join(out, 'results.xlsx')
  // BATCH_RESULTS_TRACE=1: the process's memory every 2 s on stderr, to tell its kinds apart.
  const trace = process.env.BATCH_RESULTS_TRACE
    ? setInterval(() => {
        const m = process.memoryUsage()
        const mb = (n: number) => (n / 1024 / 1024).toFixed(0)
        const status = readFileSync('/proc/self/status', 'utf8')
        const kinds = ['RssAnon', 'RssFile'].map(
          (k) => `${k} ${new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? '?'} kB`,
        )
        console.error(
          `rss ${mb(m.rss)} (${kinds.join(', ')}) heap ${mb(m.heapUsed)}/${mb(m.heapTotal)} external ${mb(m.external)} buffers ${mb(m.arrayBuffers)}`,
        )
      }, 2000)
    : undefined
  const written = await writeResultsWorkbook(engine, connection, partRunId(0), path)
  clearInterval(trace)
  await engine.close()
  const answer = {
    rows: written.rows,
    files: written.download.saved,
    mb: statSync(path).size / 1024 / 1024,
    peakMb: peakMb(),
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  await main(process.argv[2]!, process.argv[3]!)
