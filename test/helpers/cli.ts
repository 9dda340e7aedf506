// The command line run in-process, as a user's shell would run it: its output captured, no
// input (stdin is not a terminal), and the environment variables given.
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { runCli } from '../../src/cli/main'
import { BUYER_SANDBOX, BUYER_TOKEN, buyerRunCount } from './buyer-seed'
import type { SandboxOptions } from '../../src/sandbox'
import { useTestSandbox, type TestSandbox } from './sandbox'

const root = fileURLToPath(new URL('../..', import.meta.url))

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

export async function runCliCaptured(
  args: string[],
  env: Record<string, string>,
  options: { tty?: boolean } = {},
): Promise<CliResult> {
  let stdout = ''
  let stderr = ''
  const tty = options.tty ?? false
  const code = await runCli(args, {
    stdout: { write: (t: string) => (stdout += t), isTTY: tty },
    stderr: { write: (t: string) => (stderr += t), isTTY: tty },
    stdin: Object.assign(Readable.from([]), { isTTY: false }),
    env,
  })
  return { code, stdout, stderr }
}

/**
 * The command line signed in to one service: its home folder and token in the environment, and
 * `--base-url` after the arguments, as a user who works with one service types it.
 */
export function runCliOn(
  service: { baseUrl: string; token: string; home: string },
  args: string[],
): Promise<CliResult> {
  return runCliCaptured([...args, '--base-url', service.baseUrl], {
    SKILL_RUNNER_HOME: service.home,
    SKILL_RUNNER_TOKEN: service.token,
  })
}

/** The command line on a test sandbox of the tests around the call, with a home folder of its own. */
export interface CliOnSandbox {
  /** The sandbox, started before the tests and closed after them (see useTestSandbox). */
  sandbox: TestSandbox
  home: string
  /** The command line signed in to that sandbox, `--base-url` after the arguments. */
  cli(args: string[]): Promise<CliResult>
}

/** `token` defaults to the sandbox's own first token. */
export function useCliOnSandbox(
  homePrefix: string,
  options: SandboxOptions = {},
  token?: string,
): CliOnSandbox {
  const sandbox = useTestSandbox(options)
  const home = mkdtempSync(join(tmpdir(), homePrefix))
  return {
    sandbox,
    home,
    cli: (args) => runCliOn({ baseUrl: sandbox.url, token: token ?? sandbox.token, home }, args),
  }
}

/** Bea, the buyer, on the command line: her sandbox, her home folder, and what she types. */
export interface BuyerOnCli extends CliOnSandbox {
  /** How many runs Bea has: what tells whether anything was sent. */
  runCount(): Promise<number>
}

export function useBuyerOnCli(homePrefix: string): BuyerOnCli {
  const buyer = useCliOnSandbox(homePrefix, BUYER_SANDBOX, BUYER_TOKEN)
  return { ...buyer, runCount: () => buyerRunCount(buyer.sandbox) }
}

/**
 * The command line from its TypeScript source in a child process (tsx), for what needs its own
 * process: a server that keeps running, or a process killed mid-way. `env` adds to this one's.
 */
export function spawnCliSource(
  args: string[],
  env: Record<string, string>,
  stdio: StdioOptions = ['ignore', 'pipe', 'pipe'],
): ChildProcess {
  const main = JSON.stringify(join(root, 'src/cli/main.ts'))
  return spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `const { runCli } = await import(${main}); process.exitCode = await runCli(process.argv.slice(1))`,
      '--',
      ...args,
    ],
    { cwd: root, env: { ...process.env, ...env }, stdio },
  )
}
