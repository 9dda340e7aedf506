/**
 * Sending the valid rows and setting the rest aside, at scale: the bench sheet (100,000 rows x
 * 10 fields) with one row in 20 holding a bad cell (5,000 rows), read as the engine's send path
 * reads it with "set the rest aside" (flows/spend/set-aside.ts: the worker reads and checks,
 * the rows with problems are written to the workbook to fix, the rows to send to a spill file
 * as plan-submission.ts asks), beside the same read with nothing set aside and beside the
 * check only (nothing kept, as `npm run bench -- workbooks` measures it). For scale, the same
 * read keeping its rows in memory (a read without a spill folder) is measured once too. Each
 * measured in a process of its own, taken in turns three times, the best time of each kept;
 * peak RSS is the highest. CPU time is printed too: on a shared machine it sways less than the
 * clock.
 *
 * Targets (issue 19): the set-aside read at most 1.5x validating alone, peak RSS under 300 MB.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseInputWorkbook } from '../src/core/workbooks'
import {
  skippingInvalidRows,
  type ReadSheet,
  type SetAsideFile,
} from '../src/core/flows/spend/set-aside'
import { ROWS, schema, writeWorkbook } from './sheet-fixture'
import { peakRssMb, root } from './support'

const INVALID_EVERY = 20
const BAD_ROWS = ROWS / INVALID_EVERY
const workerFile = join(root, 'out/cli/worker.js')

/**
 * validate: checked only (as `skill-runner validate` and the workbooks bench); send: read as the
 * send path reads a sheet with nothing set aside (the rows spilled, to be sent); set-aside: the
 * same with the rows with problems set aside; in-memory: set aside with the rows kept in memory.
 */
type Mode = 'validate' | 'send' | 'set-aside' | 'in-memory'

interface Measured {
  ms: number
  /** CPU time of the whole process (every thread) over the same span. */
  cpuMs: number
  rssMb: number
  detail: string
}

/** One measurement, in a child process: prints a Measured. */
async function measure(mode: Mode, path: string, home: string) {
  const cpu = process.cpuUsage()
  const started = performance.now()
  let detail: string
  // The engine's spill folder: the send path keeps a plan's rows there (plan-submission.ts).
  mkdirSync(home, { recursive: true })
  const spill = mode === 'in-memory' ? {} : { spill: { path: join(home, 'rows.spill') } }
  if (mode === 'validate' || mode === 'send') {
    const result = await parseInputWorkbook({ path }, schema, {
      keepRows: mode === 'send',
      checkFiles: true,
      workerFile,
      ...(mode === 'send' ? spill : {}),
    })
    if (result.rowCount !== ROWS || result.valid) throw new Error('the bad rows were not found')
    detail = `${result.rowCount} rows ${mode === 'send' ? 'kept' : 'checked'}`
  } else {
    let file: SetAsideFile | null = null
    const about: [string, string][] = [['Set aside from', path]]
    const read = skippingInvalidRows(home, readForSending, { about }, (f) => {
      file = f
    })
    const send = await read(path, schema, spill)
    const aside = file as SetAsideFile | null
    const toSend = send.spill ? send.spill.starts.length - 1 : send.rows.length
    if (!aside || aside.rows !== BAD_ROWS || toSend !== ROWS - BAD_ROWS)
      throw new Error(`set aside ${aside?.rows ?? 0} rows, ${toSend} to send`)
    detail = `${toSend} rows to send${send.spill ? ' (spilled)' : ' (in memory)'}, ${aside.rows} set aside`
  }
  const ms = performance.now() - started
  rmSync(join(home, 'rows.spill'), { force: true })
  const used = process.cpuUsage(cpu)
  const measured: Measured = {
    ms,
    cpuMs: (used.user + used.system) / 1000,
    rssMb: peakRssMb(),
    detail,
  }
  console.log(JSON.stringify(measured))
}

/** The read the app's send path makes (bridge/verbs/spend.ts), in the worker users run. */
const readForSending: ReadSheet = (path, schemaOf, options) =>
  parseInputWorkbook({ path }, schemaOf, { ...options, checkFiles: true, workerFile })

function runChild(mode: Mode, path: string, home: string): Measured {
  const self = fileURLToPath(import.meta.url)
  const r = spawnSync(process.execPath, ['--import', 'tsx', self, mode, path, home], {
    encoding: 'utf8',
  })
  if (r.status !== 0) throw new Error(`${mode} failed: ${r.stderr}`)
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Measured
}

const [mode, childPath, childHome] = process.argv.slice(2)
if (mode) {
  await measure(mode as Mode, childPath!, childHome!)
} else {
  const dir = mkdtempSync(join(tmpdir(), 'sr-bench-set-aside-'))
  const path = join(dir, 'input.xlsx')
  try {
    await writeWorkbook(path, INVALID_EVERY)
    const built = spawnSync(process.execPath, [join(root, 'scripts/build-cli.mjs')], {
      stdio: 'inherit',
    })
    if (built.status !== 0) throw new Error('building the CLI and its worker failed')
    const best = (a: Measured | null, b: Measured): Measured =>
      !a ? b : { ...(b.ms < a.ms ? b : a), rssMb: Math.max(a.rssMb, b.rssMb) }
    let validate: Measured | null = null
    let send: Measured | null = null
    let aside: Measured | null = null
    const inMemory = runChild('in-memory', path, join(dir, 'home'))
    for (let i = 0; i < 3; i += 1) {
      validate = best(validate, runChild('validate', path, join(dir, 'home')))
      send = best(send, runChild('send', path, join(dir, 'home')))
      aside = best(aside, runChild('set-aside', path, join(dir, 'home')))
    }
    const line = (name: string, m: Measured) =>
      console.log(
        `${name.padEnd(34)} ${(m.ms / 1000).toFixed(2).padStart(6)} s  (CPU ${(m.cpuMs / 1000).toFixed(2)} s)  peak RSS ${m.rssMb.toFixed(0).padStart(4)} MB  (${m.detail})`,
      )
    console.log(
      `${ROWS.toLocaleString('en-US')} rows x 10 fields, ${BAD_ROWS.toLocaleString('en-US')} of them (5%) with a bad cell, xlsx`,
    )
    line('check only (validate)', validate!)
    line('validate to send (rows spilled)', send!)
    line('validate to send + set aside', aside!)
    line('  for scale: rows kept in memory', inMemory)
    console.log('  (each: best time of 3 runs taken in turns, highest peak RSS)')
    console.log(
      `  machine load while measuring: ${loadavg()
        .map((n) => n.toFixed(2))
        .join(', ')} (1, 5, 15 min; ${cpus().length} cores)`,
    )
    const check = (ok: boolean, text: string) => console.log(`${ok ? 'MET ' : 'MISS'} ${text}`)
    const cpuRatio = (a: Measured, b: Measured) => (a.cpuMs / b.cpuMs).toFixed(2)
    const ratio = aside!.ms / send!.ms
    check(
      ratio <= 1.5,
      `set aside vs the same read without it: ${ratio.toFixed(2)}x (target at most 1.5x; CPU time ${cpuRatio(aside!, send!)}x)`,
    )
    console.log(
      `     beside the check only, which keeps no rows to send: ${(aside!.ms / validate!.ms).toFixed(2)}x (CPU time ${cpuRatio(aside!, validate!)}x)`,
    )
    check(aside!.rssMb < 300, `peak RSS ${aside!.rssMb.toFixed(0)} MB (target under 300 MB)`)
  } finally {
    if (!process.env.KEEP_BENCH) rmSync(dir, { recursive: true, force: true })
    else console.log(dir)
  }
}
