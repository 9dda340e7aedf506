/**
 * `skill-runner`: the command line on the same engine as the desktop app (INTERFACES.md).
 * runCli parses the global options (before or after the command), finds the command, runs it
 * and turns any error into a message on stderr and an exit code.
 */
import { parseArgs } from 'node:util'
import type { Engine } from '../core/engine'
import { makeEngine } from './engine'
import type { Command, CommandContext, GlobalOptions, ParsedArgs } from './command'
import { commands } from './commands'
import { EXIT, UsageError, describeForTerminal, exitCodeOf } from './errors'
import { createOutput, type OutputStreams } from './output'

export interface CliIo extends OutputStreams {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean }
  env: NodeJS.ProcessEnv
}

const GLOBAL_HELP = `Global options (before or after the command):
  --base-url URL   talk to the service at URL
  --env NAME       use a saved environment (default: the default environment, the built-in Sandbox unless you chose another)
  --json           print one JSON document on stdout; messages go to stderr
  -h, --help       help for a command

Token: SKILL_RUNNER_TOKEN when set, otherwise the system keychain entry of the environment.
Data folder: SKILL_RUNNER_HOME when set, otherwise the platform's app-data folder.
Exit codes: 0 success, 1 the answer is "no" (invalid workbook, failed run), 2 bad usage,
3 service unreachable or token refused, 4 other errors.`

export async function runCli(argv: string[], io?: Partial<CliIo>): Promise<number> {
  const streams: CliIo = {
    stdout: io?.stdout ?? process.stdout,
    stderr: io?.stderr ?? process.stderr,
    stdin: io?.stdin ?? process.stdin,
    env: io?.env ?? process.env,
  }
  let global: GlobalOptions & { help: boolean; version: boolean }
  let rest: string[]
  try {
    ;({ global, rest } = splitGlobalOptions(argv))
  } catch (error) {
    streams.stderr.write(`${describeForTerminal(error)}\n`)
    return EXIT.usage
  }
  const out = createOutput(global.json, streams)

  if (global.version) {
    out.result({ version: CLI_VERSION }, () => CLI_VERSION)
    return EXIT.ok
  }
  const found = findCommand(rest)
  if (!found) {
    if (rest.length === 0 || global.help) {
      streams.stdout.write(`${generalHelp()}\n`)
      return global.help ? EXIT.ok : EXIT.usage
    }
    streams.stderr.write(
      `${describeForTerminal(new UsageError(`unknown command “${rest.join(' ')}”.`))}\n`,
    )
    return EXIT.usage
  }
  const { command, args: commandArgs } = found
  if (global.help) {
    streams.stdout.write(`${commandHelp(command)}\n`)
    return EXIT.ok
  }

  const controller = new AbortController()
  let interruptedResolve: () => void = () => {}
  const interrupted = new Promise<void>((resolve) => (interruptedResolve = resolve))
  const onSignal = () => {
    controller.abort(new Error('interrupted'))
    interruptedResolve()
  }
  const attachSignals = io === undefined || io.stdin === undefined
  if (attachSignals) {
    process.once('SIGINT', onSignal)
    process.once('SIGTERM', onSignal)
  }

  let engine: Engine | undefined
  const ctx: CommandContext = {
    out,
    global,
    stdin: streams.stdin,
    env: streams.env,
    signal: controller.signal,
    interrupted,
    async engine() {
      engine ??= await makeEngine(streams.env)
      return engine
    },
    async connect() {
      return (await ctx.engine()).connect({ env: global.env, baseUrl: global.baseUrl })
    },
  }
  try {
    const parsed = parseCommandArgs(command, commandArgs)
    const code = await command.run(ctx, parsed)
    return code ?? EXIT.ok
  } catch (error) {
    out.endProgress()
    streams.stderr.write(`${describeForTerminal(error)}\n`)
    return exitCodeOf(error)
  } finally {
    if (attachSignals) {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    }
    await engine?.close().catch(() => {})
  }
}

const CLI_VERSION = '0.1.0'

/** Pulls the global options out of argv wherever they are; the rest is the command. */
export function splitGlobalOptions(argv: string[]): {
  global: GlobalOptions & { help: boolean; version: boolean }
  rest: string[]
} {
  const global = { json: false, help: false, version: false } as GlobalOptions & {
    help: boolean
    version: boolean
  }
  const rest: string[] = []
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!
    if (arg === '--') {
      rest.push(...argv.slice(i))
      break
    }
    const [name, inline] = arg.startsWith('--') ? splitOnce(arg, '=') : [arg, undefined]
    if (name === '--json' && inline === undefined) global.json = true
    else if ((name === '--help' || name === '-h') && inline === undefined) global.help = true
    else if (name === '--version' && inline === undefined && rest.length === 0)
      global.version = true
    else if (name === '--base-url' || name === '--env') {
      const value = inline ?? argv[++i]
      if (value === undefined || value === '') throw new UsageError(`${name} needs a value.`)
      if (name === '--base-url') global.baseUrl = value
      else global.env = value
    } else rest.push(arg)
  }
  if (global.baseUrl && global.env) {
    throw new UsageError('use either --base-url or --env, not both.')
  }
  return { global, rest }
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator)
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)]
}

/** The command named by the longest run of leading words, and the arguments after them. */
function findCommand(rest: string[]): { command: Command; args: string[] } | undefined {
  let best: { command: Command; args: string[] } | undefined
  for (const command of commands) {
    const words = command.name.split(' ')
    if (words.every((w, i) => rest[i] === w)) {
      if (!best || words.length > best.command.name.split(' ').length) {
        best = { command, args: rest.slice(words.length) }
      }
    }
  }
  return best
}

function parseCommandArgs(command: Command, args: string[]): ParsedArgs {
  let parsed
  try {
    parsed = parseArgs({
      args,
      options: command.options ?? {},
      allowPositionals: true,
      strict: true,
    })
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error)
    throw new UsageError(
      `${message.replace(/^Unknown option/, 'unknown option')}`,
      `Usage: skill-runner ${command.usage}`,
    )
  }
  const count = parsed.positionals.length
  const allowed = command.positionals ?? { min: 0, max: 0, names: '' }
  if (count < allowed.min) {
    throw new UsageError(
      `${command.name} needs ${allowed.names}.`,
      `Usage: skill-runner ${command.usage}`,
    )
  }
  if (count > allowed.max) {
    throw new UsageError(
      `${command.name} does not take “${parsed.positionals.slice(allowed.max).join(' ')}”.`,
      `Usage: skill-runner ${command.usage}`,
    )
  }
  return parsed as ParsedArgs
}

function generalHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length))
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`)
  return `skill-runner: prepare, validate, run and collect AI work on a Skill Execution Service.

Usage: skill-runner <command> [options]

Commands:
${lines.join('\n')}

${GLOBAL_HELP}

Run \`skill-runner <command> --help\` for a command's options.`
}

function commandHelp(command: Command): string {
  return `Usage: skill-runner ${command.usage}\n\n${command.summary}\n\n${GLOBAL_HELP}`
}
