/**
 * `skill-runner`: the command line on the same engine as the desktop app (INTERFACES.md).
 * runCli parses the global options (before or after the command), finds the command, runs it
 * and turns any error into a message on stderr and an exit code.
 */
import { parseArgs } from 'node:util'
import type { Engine } from '../core/engine'
import {
  atMostOne,
  misuse,
  type Command,
  type CommandContext,
  type GlobalOptions,
  type ParsedArgs,
} from './command'
import { commands } from './commands'
import { EXIT, UsageError, describeForTerminal, exitCodeOf } from './errors'
import { commandHelp, generalHelp } from './help'
import { GLOBAL_FLAGS, findCommand, unknownCommandError } from './meta-commands'
import { closestWords, didYouMean } from './suggest'
import { createOutput, type Output, type OutputStreams } from './output'
import { colorEnabled, createStyle, paintMarks } from './style'
import { terminalText } from '../shared/format/terminal'

export interface CliIo extends OutputStreams {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean }
  env: NodeJS.ProcessEnv
  /** The time now (ms): Date.now, or a test's clock. */
  now: () => number
}

export async function runCli(argv: string[], io?: Partial<CliIo>): Promise<number> {
  const streams: CliIo = {
    stdout: io?.stdout ?? process.stdout,
    stderr: io?.stderr ?? process.stderr,
    // Read when a command reads it: Node makes process.stdin on first use, and making it (a file
    // stream, even on /dev/null) cost --help or a validate about a tenth of bare node's start.
    get stdin() {
      return io?.stdin ?? process.stdin
    },
    env: io?.env ?? process.env,
    now: io?.now ?? Date.now,
  }
  const printError = errorPrinter(streams)
  let global: GlobalOptions & { help: boolean; version: boolean }
  let rest: string[]
  try {
    ;({ global, rest } = splitGlobalOptions(argv))
  } catch (error) {
    printError(error)
    return EXIT.usage
  }
  const out = createOutput(global.json, streams, streams.env)

  if (global.version) {
    out.result({ version: CLI_VERSION }, () => CLI_VERSION)
    return EXIT.ok
  }
  const found = findCommand(commands, rest)
  if (!found) {
    if (rest.length === 0 || global.help) {
      streams.stdout.write(`${generalHelp(commands)}\n`)
      return global.help ? EXIT.ok : EXIT.usage
    }
    printError(unknownCommandError(commands, rest))
    return EXIT.usage
  }
  const { command, args: commandArgs } = found
  if (global.help) {
    streams.stdout.write(`${commandHelp(command)}\n`)
    return EXIT.ok
  }

  // Ctrl-C belongs to the command only when the caller hands in no stdin of its own (tests do).
  const attachSignals = io === undefined || io.stdin === undefined
  return runCommand(command, commandArgs, { out, global, streams, printError, attachSignals })
}

interface CommandRun {
  out: Output
  global: GlobalOptions
  streams: CliIo
  printError: (error: unknown) => void
  attachSignals: boolean
}

/**
 * Runs one command with its context: Ctrl-C / SIGTERM abort it, the engine is made on first use
 * and closed at the end, and any error becomes a message on stderr and an exit code.
 */
async function runCommand(
  command: Command,
  commandArgs: string[],
  { out, global, streams, printError, attachSignals }: CommandRun,
): Promise<number> {
  const controller = new AbortController()
  let interruptedResolve: () => void = () => {}
  const interrupted = new Promise<void>((resolve) => (interruptedResolve = resolve))
  const onSignal = () => {
    controller.abort(new Error('interrupted'))
    interruptedResolve()
  }
  if (attachSignals) {
    process.once('SIGINT', onSignal)
    process.once('SIGTERM', onSignal)
  }

  let engine: Engine | undefined
  const ctx: CommandContext = {
    out,
    global,
    get stdin() {
      return streams.stdin
    },
    env: streams.env,
    now: streams.now,
    signal: controller.signal,
    interrupted,
    async engine() {
      // The engine (storage, the service client, the contract's schemas) loads with the first
      // command that asks for it, never for --help, --version or completion.
      engine ??= await (await import('./engine')).makeEngine(streams.env)
      return engine
    },
    async connect() {
      return (await ctx.engine()).connect({ env: global.env, baseUrl: global.baseUrl })
    },
    async session() {
      return { engine: await ctx.engine(), connection: await ctx.connect() }
    },
  }
  try {
    const parsed = parseCommandArgs(command, commandArgs)
    const code = await command.run(ctx, parsed)
    return code ?? EXIT.ok
  } catch (error) {
    out.endProgress()
    printError(error)
    return exitCodeOf(error)
  } finally {
    if (attachSignals) {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    }
    await engine?.close().catch(() => {})
  }
}

/** Prints an error on stderr: "error:" in red on a terminal, then what to do. */
function errorPrinter(streams: CliIo): (error: unknown) => void {
  const errStyle = createStyle(colorEnabled(streams.stderr, streams.env))
  return (error) => {
    const text = terminalText(describeForTerminal(error))
    const marked = text.replace(/^error:/, errStyle.red(errStyle.bold('error:')))
    streams.stderr.write(`${paintMarks(marked, errStyle.enabled)}\n`)
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
  atMostOne(undefined, { '--base-url': global.baseUrl, '--env': global.env })
  return { global, rest }
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator)
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)]
}

/** A usage error for arguments parseArgs refused; a mistyped option gets the nearest real one. */
function optionError(command: Command, error: unknown): UsageError {
  const usage = `Usage: skill-runner ${command.usage}`
  const message = error instanceof Error ? error.message.split('\n')[0]! : String(error)
  const unknown = (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
  const option = unknown ? /'([^']+)'/.exec(message)?.[1] : undefined
  if (!option) return new UsageError(message.replace(/^Unknown option/, 'unknown option'), usage)
  const known = [...Object.keys(command.options ?? {}).map((name) => `--${name}`), ...GLOBAL_FLAGS]
  const near = didYouMean(closestWords(option.split('=')[0]!, known), false)
  return new UsageError(`unknown option “${option}”.`, near ? `${near}\n${usage}` : usage)
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
    throw optionError(command, error)
  }
  const count = parsed.positionals.length
  const allowed = command.positionals ?? { min: 0, max: 0, names: '' }
  if (count < allowed.min) {
    throw misuse(command, `${command.name} needs ${allowed.names}.`)
  }
  if (count > allowed.max) {
    throw misuse(
      command,
      `${command.name} does not take “${parsed.positionals.slice(allowed.max).join(' ')}”.`,
    )
  }
  return parsed as ParsedArgs
}
