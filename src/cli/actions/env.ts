/**
 * `env add|list|remove|use`: saved environments. Tokens go to the keychain, never to output;
 * without one, SKILL_RUNNER_TOKEN gives the token (the refusal says so).
 */
import type { EnvironmentView } from '../../shared/bridge'
import {
  flag,
  misuse,
  stringOption,
  type CommandContext,
  type Declared,
  type ParsedArgs,
} from '../command'
import { UsageError } from '../errors'
import { table } from '../output'
import { amountT, formatAmount } from '../../shared/format/amounts'
import { MAX_ROW_LIMIT } from '../../core/flows/spend/row-limits'

/** The TOKEN column: where each token is, as the app's header and sidebar say it. */
const TOKEN_COLUMN: Record<EnvironmentView['token']['place'], string> = {
  'built-in': 'not needed',
  saved: 'stored',
  session: 'this session only',
  environment: 'SKILL_RUNNER_TOKEN',
  none: 'missing',
}

async function printList(ctx: CommandContext) {
  const engine = await ctx.engine()
  const items = await engine.listEnvironments()
  ctx.out.result({ items }, () =>
    table(
      ['', 'NAME', 'ADDRESS', 'TOKEN'],
      items.map((e: EnvironmentView) => [
        e.isDefault ? '*' : '',
        e.name,
        e.builtIn ? e.baseUrl || '(built in, starts when used)' : e.baseUrl,
        TOKEN_COLUMN[e.token.place],
      ]),
    ),
  )
}

async function readStdin(stream: NodeJS.ReadableStream): Promise<string> {
  let text = ''
  for await (const chunk of stream)
    text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8')
  return text
}

export async function envAdd(ctx: CommandContext, args: ParsedArgs, self: Declared) {
  const baseUrl = ctx.global.baseUrl
  if (!baseUrl) throw misuse(self, 'env add needs --base-url URL.')
  let token: string | undefined
  if (flag(args, 'token-stdin')) {
    token = (await readStdin(ctx.stdin)).trim()
    if (!token)
      throw new UsageError(
        '--token-stdin was given but stdin was empty.',
        'Pipe the token in, e.g. `printf %s "$TOKEN" | skill-runner env add ...`.',
      )
  }
  const engine = await ctx.engine()
  const unitLabel = stringOption(args, 'unit-label')
  await engine.addEnvironment({
    name: args.positionals[0]!,
    baseUrl,
    token,
    ...(unitLabel ? { unitLabel } : {}),
  })
  ctx.out.note(
    `saved environment “${args.positionals[0]}”${token ? ` (token kept in ${engine.secretStoreView().description})` : ''}`,
  )
  await printList(ctx)
}

export async function envList(ctx: CommandContext) {
  return printList(ctx)
}

export async function envRemove(ctx: CommandContext, args: ParsedArgs) {
  await (await ctx.engine()).removeEnvironment(args.positionals[0]!)
  await printList(ctx)
}

/**
 * The environment an `env limit|rows NAME [VALUE]` names, and the value given: null for the word
 * that clears the setting (`off`, `auto`), undefined when none was given (the setting is shown).
 */
async function settingArgs(ctx: CommandContext, args: ParsedArgs, clear: string) {
  const [name, value] = args.positionals as [string, string | undefined]
  const engine = await ctx.engine()
  const connection = await engine.connect({ env: name })
  const given = value === undefined ? undefined : value.toLowerCase() === clear ? null : value
  return { engine, connection, given }
}

/** `env limit NAME [N|off]`: shows the limit, or sets it (a whole number) or turns it off. */
export async function envLimit(ctx: CommandContext, args: ParsedArgs, self: Declared) {
  const { engine, connection, given } = await settingArgs(ctx, args, 'off')
  if (given !== undefined) {
    if (given !== null && !/^\d{1,15}$/.test(given)) {
      throw misuse(
        self,
        `the limit is a whole number of ${connection.unitLabel} or off, not “${given}”.`,
      )
    }
    const limitT = given === null ? null : amountT(Number(given))
    if (limitT === 0)
      throw misuse(self, 'a limit of 0 would refuse every send; give off to turn it off.')
    engine.usage.setLimit(connection.name, limitT)
  }
  const limitT = engine.usage.limit(connection.name)
  ctx.out.note(
    limitT === null
      ? `“${connection.name}” has no monthly spending limit.`
      : `“${connection.name}”: monthly spending limit ${formatAmount(limitT, connection.unitLabel)}, kept by this computer (not by the service); every paid send that would pass it is refused.`,
  )
  await printList(ctx)
}

/** `env rows NAME [N|auto]`: shows the most rows per request, or sets it, or leaves it to be learnt. */
export async function envRows(ctx: CommandContext, args: ParsedArgs, self: Declared) {
  const { engine, connection, given } = await settingArgs(ctx, args, 'auto')
  if (given !== undefined) {
    const rows = given === null ? null : Number(given)
    if (given !== null && (!/^\d{1,8}$/.test(given) || rows! < 1 || rows! > MAX_ROW_LIMIT)) {
      throw misuse(
        self,
        `the rows per request are a whole number from 1 to ${MAX_ROW_LIMIT.toLocaleString('en-US')} or auto, not “${given}”.`,
      )
    }
    engine.rowLimits.set(connection.historyKey, rows)
  }
  const limit = engine.rowLimits.of(connection.historyKey)
  const words =
    limit === null
      ? `“${connection.name}”: no limit of rows per request is known; a sheet goes whole, and if the service refuses it for its size, the limit it names is learnt and the rows go as parts.`
      : `“${connection.name}”: at most ${limit.rows.toLocaleString('en-US')} rows per request (${limit.source === 'set' ? 'set on this computer' : 'learnt from the service'}); a sheet with more goes as parts under one confirmation.`
  ctx.out.result(
    {
      environment: connection.name,
      rowsPerRequest: limit?.rows ?? null,
      source: limit?.source ?? null,
    },
    () => words,
  )
}

export async function envUse(ctx: CommandContext, args: ParsedArgs) {
  ;(await ctx.engine()).useEnvironment(args.positionals[0]!)
  await printList(ctx)
}
