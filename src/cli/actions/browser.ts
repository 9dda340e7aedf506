/** `web`: browser mode, the whole app in any browser on this computer. */
import type { Engine } from '../../core/engine'
import { BUILTIN_SANDBOX, normaliseBaseUrl } from '../../core/environments/environments'
import { integerOption, stringOption, type CommandContext, type ParsedArgs } from '../command'
import { EXIT } from '../errors'

export async function web(ctx: CommandContext, args: ParsedArgs) {
  const host = stringOption(args, 'host') ?? '127.0.0.1'
  const port = integerOption(stringOption(args, 'port'), '--port', 0, 65535) ?? 0
  // Browser mode (its server and the bridge's schemas) loads only for this command, so every
  // other command starts without it.
  const [{ startBrowserMode }, { requireLoopbackHost }] = await Promise.all([
    import('../../web/app'),
    import('../../web/server'),
  ])
  // Before the engine opens anything: an address the server will refuse starts nothing.
  requireLoopbackHost(host)
  const engine = await ctx.engine()
  // The app's first screen says how tokens are kept, so the store is chosen before it serves.
  await engine.whenSecretStoreChosen()
  const opensOn = await environmentToOpen(ctx, engine)
  // Start the built-in Sandbox now, so the first screen shows it running.
  await engine
    .connect({ env: BUILTIN_SANDBOX })
    .catch((error: unknown) => ctx.out.note(`the built-in Sandbox did not start: ${String(error)}`))
  const mode = await startBrowserMode({
    engine,
    app: { name: 'Skill Runner', version: '0.1.0', platform: process.platform },
    opensOn,
    host,
    port,
    onRefused: (reason) => ctx.out.note(`refused: ${reason}`),
  })
  if (opensOn) ctx.out.note(`opening on the environment “${opensOn}”`)
  ctx.out.announce(`app at ${mode.url}`)
  await ctx.interrupted
  await mode.close()
  return EXIT.ok
}

/**
 * The environment `--env` or `--base-url` names, or null. An address no saved environment has
 * is saved under its host name (said on stderr), since the app names environments.
 */
async function environmentToOpen(
  ctx: CommandContext,
  engine: Pick<Engine, 'environments' | 'addEnvironment'>,
): Promise<string | null> {
  const { env, baseUrl } = ctx.global
  if (env) return engine.environments.get(env).name
  if (!baseUrl) return null
  const normalised = normaliseBaseUrl(baseUrl)
  const origin = new URL(normalised).origin
  const saved = engine.environments
    .list()
    .find((e) => !e.builtIn && new URL(e.baseUrl).origin === origin)
  if (saved) return saved.name
  const name = new URL(normalised).host.replace(/[^\p{L}\p{N} ._-]/gu, '-')
  await engine.addEnvironment({ name, baseUrl: normalised })
  ctx.out.note(
    `saved ${normalised} as the environment “${name}” (remove it with: skill-runner env remove "${name}")`,
  )
  return name
}
