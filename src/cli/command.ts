/** The shape of one CLI command, and what every command gets to work with. */
import type { ParseArgsConfig } from 'node:util'
import type { Connection, Engine } from '../core/engine'
import type { ApiClient } from '../core/service'
import type { Output } from './output'
import { UsageError } from './errors'

export interface GlobalOptions {
  baseUrl?: string | undefined
  env?: string | undefined
  json: boolean
}

export interface CommandContext {
  out: Output
  global: GlobalOptions
  /** The engine, made on first use (commands like `sandbox` never need one). */
  engine(): Promise<Engine>
  /** A connection to the environment the global options name (or the default). */
  connect(): Promise<Connection>
  /** Both: what most commands that talk to the service start with. */
  session(): Promise<Session>
  stdin: NodeJS.ReadableStream & { isTTY?: boolean }
  env: NodeJS.ProcessEnv
  /** The time now (ms); what a watch judges time left and stalls by. */
  now: () => number
  /** Aborted on Ctrl-C / SIGTERM. */
  signal: AbortSignal
  /** Resolves when the user interrupts (for foreground servers). */
  interrupted: Promise<void>
}

/** The engine and a connection made with it. */
export interface Session {
  engine: Engine
  connection: Connection
}

export type OptionsConfig = NonNullable<ParseArgsConfig['options']>

export interface ParsedArgs {
  values: Record<string, string | boolean | string[] | boolean[] | undefined>
  positionals: string[]
}

export interface Command {
  /** The words that name it, e.g. "runs list". */
  name: string
  summary: string
  /** Everything after `skill-runner`, e.g. "runs list [--status S] [--limit N]". */
  usage: string
  options?: OptionsConfig
  /** More help after the options in `COMMAND --help` (examples, where files go). */
  details?: string
  /** Number of positional arguments accepted (default 0). */
  positionals?: { min: number; max: number; names: string }
  run: RunCommand
}

/** What a command does: an exit code, or nothing for success. */
export type RunCommand = (ctx: CommandContext, args: ParsedArgs) => Promise<number | void>

/** A command as declared, without its run: what an action is told of its own command. */
export type Declared = Omit<Command, 'run'>

/**
 * An action: a command's run, also given its own declaration, so a usage error can quote its
 * usage without the action importing the declarations that load it (imports go one way).
 */
export type Action = (
  ctx: CommandContext,
  args: ParsedArgs,
  self: Declared,
) => Promise<number | void>

/**
 * A command's run that loads its module of actions only when it runs: `--help`, `--version` and
 * completion read the declarations and never wait for the engine, zod or a workbook reader.
 */
function runFrom<Name extends string>(
  load: () => Promise<Record<Name, Action>>,
  name: Name,
  declared: Declared,
): RunCommand {
  return async (ctx, args) => (await load())[name](ctx, args, declared)
}

/**
 * A group's commands from their declarations, each run by the function of the same name in the
 * module `load` imports (actions/<group>.ts), so a declaration without its action does not type.
 */
export function commandGroup<Name extends string, Actions extends Record<Name, Action>>(
  load: () => Promise<Actions>,
  declarations: Record<Name, Declared>,
): Record<Name, Command> {
  const entries = Object.entries(declarations) as [Name, Declared][]
  return Object.fromEntries(
    entries.map(([name, declared]) => [name, { ...declared, run: runFrom(load, name, declared) }]),
  ) as Record<Name, Command>
}

/** One positional argument, e.g. `one('a RUN id')`. */
export const one = (names: string) => ({ min: 1, max: 1, names })

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name]
  return typeof value === 'string' ? value : undefined
}

/**
 * The `-o` path of a command that writes something: a workbook (`kind: 'xlsx'`) or a folder.
 * Missing or of the wrong kind, it is a usage error naming the command's usage.
 */
export function outputOption(
  args: ParsedArgs,
  command: Pick<Command, 'usage'>,
  kind: 'xlsx' | 'folder',
): string {
  const output = stringOption(args, 'output')
  const ok = kind === 'xlsx' ? output?.toLowerCase().endsWith('.xlsx') : Boolean(output)
  if (!output || !ok) {
    throw misuse(
      command,
      kind === 'xlsx'
        ? 'give the workbook to write with -o FILE.xlsx.'
        : 'give the folder to write into with -o DIR.',
    )
  }
  return output
}

/** `… show ID`: what the service has under the ID given, as JSON or in the words of `describe`. */
export async function showOne<T>(
  ctx: CommandContext,
  args: ParsedArgs,
  ask: (client: ApiClient, id: string, options: { signal: AbortSignal }) => Promise<T>,
  describe: (found: T) => string,
): Promise<void> {
  const connection = await ctx.connect()
  const found = await ask(connection.client, args.positionals[0]!, { signal: ctx.signal })
  ctx.out.result(found, () => describe(found))
}

/** A usage error that shows the command's usage line under the message. */
export function misuse(command: Pick<Command, 'usage'>, message: string): UsageError {
  return new UsageError(message, `Usage: skill-runner ${command.usage}`)
}

/**
 * Refuses options that exclude each other when more than one is given, in the same words for
 * every command: `given` maps each option as the usage writes it ("--pilot N") to its value.
 * `command`: whose usage line the refusal shows (none for the global options).
 */
export function atMostOne(
  command: Pick<Command, 'usage'> | undefined,
  given: Record<string, unknown>,
): void {
  const options = Object.keys(given)
  if (options.filter((option) => given[option] !== undefined).length < 2) return
  const message = `give either ${options.join(' or ')}, not both.`
  throw command ? misuse(command, message) : new UsageError(message)
}

export function flag(args: ParsedArgs, name: string): boolean {
  return args.values[name] === true
}

/** A whole-number option within [min, max], or undefined when it is not given. */
export function integerOption(
  value: string | undefined,
  name: string,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined
  if (!/^\d+$/.test(value.trim()) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${name} must be a whole number from ${min} to ${max} (got “${value}”).`)
  }
  return Number(value)
}
