/** `web`: browser mode, the whole app in any browser on this computer. */
import { BUILTIN_SANDBOX } from '../../core/environments'
import { createShellEngine } from '../../core/shell-engine'
import { startBrowserMode } from '../../web/app'
import { stringOption, type Command } from '../command'
import { EXIT } from '../errors'
import { integerOption } from './system'

export const web: Command = {
  name: 'web',
  summary: 'Serve the app to a browser on this computer (127.0.0.1); prints the address to open.',
  usage: 'web [--host 127.0.0.1] [--port N]',
  options: { host: { type: 'string' }, port: { type: 'string' } },
  async run(ctx, args) {
    const engine = await ctx.engine()
    // Start the built-in Sandbox now, so the first screen shows it running.
    await engine
      .connect({ env: BUILTIN_SANDBOX })
      .catch((error: unknown) =>
        ctx.out.note(`the built-in Sandbox did not start: ${String(error)}`),
      )
    const mode = await startBrowserMode({
      engine: createShellEngine(engine, {
        name: 'Skill Runner',
        version: '0.1.0',
        platform: process.platform,
      }),
      host: stringOption(args, 'host') ?? '127.0.0.1',
      port: integerOption(stringOption(args, 'port'), '--port', 0, 65535) ?? 0,
      onRefused: (reason) => ctx.out.note(`refused: ${reason}`),
    })
    ctx.out.announce(`app at ${mode.url}`)
    await ctx.interrupted
    await mode.close()
    return EXIT.ok
  },
}
