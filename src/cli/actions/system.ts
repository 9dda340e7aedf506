/** `doctor` and `sandbox`. */
import { integerOption, stringOption, type ParsedArgs, type CommandContext } from '../command'
import { EXIT } from '../errors'
import type { TokenStorageView } from '../../shared/bridge'
import { defined } from '../../shared/defined'

export async function doctor(ctx: CommandContext) {
  const engine = await ctx.engine()
  const report = await engine.checkConnection({
    env: ctx.global.env,
    baseUrl: ctx.global.baseUrl,
  })
  // Where this environment's token is, in the words the app's header and sidebar use.
  const place = (await engine.listEnvironments()).find(
    (e) => e.name === report.environment && !e.builtIn,
  )?.token
  const step = (name: 'healthz' | 'version' | 'auth') => report.steps.find((s) => s.step === name)!
  const json = {
    healthz: { ok: step('healthz').ok, status: step('healthz').status },
    version: {
      ok: step('version').ok,
      status: step('version').status,
      body: step('version').body ?? null,
    },
    auth: { ok: step('auth').ok, status: step('auth').status },
  }
  ctx.out.result(json, () =>
    [
      `Environment: ${report.environment}`,
      ...report.steps.map(
        (s) =>
          `${s.ok ? ctx.out.style.green('✓') : s.skipped ? '-' : ctx.out.style.red('✗')} ${s.title}: ${s.message}`,
      ),
      ...(place ? [`Its token: ${place.label}.`] : []),
      ...tokenStorageLines(report.secretStore),
    ].join('\n'),
  )
  return report.ok ? EXIT.ok : EXIT.service
}

export async function sandbox(ctx: CommandContext, args: ParsedArgs) {
  const port = integerOption(stringOption(args, 'port'), '--port', 0, 65535) ?? 0
  const taskMs = integerOption(stringOption(args, 'task-ms'), '--task-ms', 0, 3_600_000)
  const latencyMs = integerOption(stringOption(args, 'latency-ms'), '--latency-ms', 0, 60_000)
  const urlTtlMs = integerOption(stringOption(args, 'url-ttl-ms'), '--url-ttl-ms', 1, 86_400_000)
  const maxRows = integerOption(stringOption(args, 'max-rows'), '--max-rows', 1, 10_000_000)
  const tokens = (args.values.token as string[] | undefined) ?? []
  const seed = stringOption(args, 'seed')
  const dbPath = stringOption(args, 'db')
  // Loaded by this command only (see cli/engine.ts: every other command starts without it).
  const { startSandbox } = await import('../../sandbox')
  const server = await startSandbox({
    host: stringOption(args, 'host') ?? '127.0.0.1',
    port,
    tokens,
    ...defined({ dbPath: dbPath || undefined, seed: seed || undefined }),
    ...defined({ taskMs, latencyMs, urlTtlMs, maxRows }),
    log: (line) => ctx.out.note(line),
  })
  if (server.demoToken) ctx.out.note(`demo user token: ${server.demoToken}`)
  // The one line scripts wait for, on stdout, even with --json.
  ctx.out.announce(`listening on ${server.url}`)
  await ctx.interrupted
  ctx.out.note('stopping the sandbox')
  await server.close()
  return EXIT.ok
}

/**
 * Where tokens live, in the words of the engine's view (never the keychain binding's own text):
 * without a keychain, that none is there and the two ways on.
 */
export function tokenStorageLines(view: TokenStorageView): string[] {
  if (view.kind === 'keychain' || view.canSaveTokens) {
    return [`Tokens are kept in ${view.description}.`, ...(view.advice ? [view.advice] : [])]
  }
  return [
    ...(view.kind === 'environment'
      ? ['The token comes from the SKILL_RUNNER_TOKEN environment variable.']
      : []),
    'No keychain on this computer, so a token cannot be saved here.',
    'Give the token in the SKILL_RUNNER_TOKEN environment variable, or install or unlock a keychain.',
    ...(view.advice ? [view.advice] : []),
    ...(view.command ? [`On Debian or Ubuntu: ${view.command}`] : []),
  ]
}
