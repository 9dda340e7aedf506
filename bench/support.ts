/**
 * Shared pieces of the benchmarks: a sandbox in a child process, the engine connected to it in
 * a temporary folder, and figures.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createEngine, type Connection, type Engine } from '../src/core/engine'
import { MemorySecretStore } from '../src/core/secrets'
import type { SandboxOptions } from '../src/sandbox'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..')

export interface ChildSandbox {
  url: string
  token: string
  stop(): Promise<void>
}

/** Starts `skill-runner sandbox` in its own process, so its memory is not counted here. */
export function startChildSandbox(args: string[] = []): Promise<ChildSandbox> {
  return sandboxProcess([join(root, 'bin/skill-runner.js'), 'sandbox', '--port', '0', ...args])
}

/**
 * The sandbox in its own process with options the command line does not take (`concurrency`,
 * a seed as an object): bench/sandbox-process.ts.
 */
export function startSandboxProcess(options: SandboxOptions): Promise<ChildSandbox> {
  const script = join(root, 'bench/sandbox-process.ts')
  return sandboxProcess(['--import', 'tsx', script, JSON.stringify(options)])
}

/** A sandbox started by `node ARGS`, ready once it says where it listens. */
async function sandboxProcess(nodeArgs: string[]): Promise<ChildSandbox> {
  const child: ChildProcess = spawn(process.execPath, nodeArgs, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  let buffer = ''
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8')
      const match = /listening on (\S+)/.exec(buffer)
      if (match) resolve(match[1]!)
    })
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before listening`)))
  })
  return {
    url,
    token: 'sandbox-demo-token',
    async stop() {
      child.kill('SIGTERM')
      if (child.exitCode === null) await once(child, 'exit')
    },
  }
}

export interface BenchEngine {
  /** A temporary folder for the benchmark's files; the engine's home is inside it. */
  dir: string
  sandbox: ChildSandbox
  engine: Engine
  connection: Connection
  /** Closes the engine, stops the sandbox and deletes the folder. */
  close(): Promise<void>
}

/**
 * A child-process sandbox (started with `sandboxArgs`) and an engine connected to it, in a fresh
 * folder named from `prefix`, so a benchmark only writes what it measures.
 */
export async function startBenchEngine(
  prefix: string,
  sandboxArgs: string[] = [],
): Promise<BenchEngine> {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  const sandbox = await startChildSandbox(sandboxArgs)
  // The engine alone, as the app makes it: no test helper (and what it imports) in the figures.
  const engine = createEngine({
    home: join(dir, 'home'),
    secretStore: new MemorySecretStore(),
    tokenOverride: sandbox.token,
  })
  const close = async () => {
    await engine.close()
    await sandbox.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    const connection = await engine.connect({ baseUrl: sandbox.url })
    return { dir, sandbox, engine, connection, close }
  } catch (error) {
    await close()
    throw error
  }
}

/**
 * `entry` as built JavaScript in out/bench (named `name`), with the workbook worker as worker.js
 * beside it (where run-in-worker.ts looks for a built entry), packages left in node_modules, as
 * the app and the command line ship the engine; answers the arguments that run it. Run through
 * tsx instead (BENCH_FROM_SOURCE=1, or BIG_RUN_FROM_SOURCE=1), the engine and every worker thread
 * also hold tsx's compiler and the compiled sources, which the app never does.
 */
export async function bundleForBench(entry: string, name: string): Promise<string[]> {
  if (process.env.BENCH_FROM_SOURCE || process.env.BIG_RUN_FROM_SOURCE)
    return ['--import', 'tsx', join(root, entry)]
  const { build } = await import('esbuild')
  await build({
    absWorkingDir: root,
    entryPoints: [
      { in: entry, out: name },
      { in: 'src/core/workbooks/worker/entry.ts', out: 'worker' },
    ],
    outdir: 'out/bench',
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
  })
  return [join(root, 'out/bench', `${name}.js`)]
}

/** Peak resident memory of this process so far, in MB. */
export function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/** A csv written as it is made: `header`, then `line(n)` for n from 1 to `rows`. */
export async function writeCsv(
  path: string,
  header: string,
  rows: number,
  line: (n: number) => string,
): Promise<void> {
  const out = createWriteStream(path)
  out.write(`${header}\n`)
  for (let n = 1; n <= rows; n += 1) {
    if (!out.write(`${line(n)}\n`)) await new Promise<void>((r) => out.once('drain', () => r()))
  }
  await new Promise<void>((r) => out.end(() => r()))
}
