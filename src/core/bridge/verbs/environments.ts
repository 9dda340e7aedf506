/** The environments and the connection check: the sidebar and the connection card. */
import type { AppInfo } from '../../../shared/bridge'
import { tokenStoreNote } from '../../secrets'
import type { Engine } from '../../engine'
import type { VerbContext, Verbs } from './context'
import { defined } from '../../../shared/defined'

/** The environments, their tokens and the connection check: all the engine's own. */
type EnvironmentServices = Pick<
  Engine,
  | 'environments'
  | 'addEnvironment'
  | 'removeEnvironment'
  | 'useEnvironment'
  | 'setToken'
  | 'checkConnection'
  | 'secretStoreView'
>

export function environmentVerbs(
  ctx: VerbContext<EnvironmentServices>,
): Verbs<
  | 'getAppInfo'
  | 'listEnvironments'
  | 'addEnvironment'
  | 'removeEnvironment'
  | 'useEnvironment'
  | 'setToken'
  | 'checkConnection'
  | 'setUnitLabel'
> {
  const { engine } = ctx
  return {
    async getAppInfo(): Promise<AppInfo> {
      const secretStore = engine.secretStoreView()
      return {
        ...ctx.options.app,
        shell: ctx.options.shell,
        secretStore,
        tokenNote: tokenStoreNote(secretStore),
      }
    },
    listEnvironments: () => ctx.environments(),
    async addEnvironment(args) {
      await engine.addEnvironment({
        name: args.name,
        baseUrl: args.baseUrl,
        token: args.token,
        ...defined({ keeping: args.keeping }),
      })
      return ctx.changed()
    },
    async removeEnvironment(args) {
      ctx.runWatch.unwatch(args.name)
      await engine.removeEnvironment(args.name)
      return ctx.changed()
    },
    async useEnvironment(args) {
      ctx.sessionDefault.name = null
      engine.useEnvironment(args.name)
      return ctx.changed()
    },
    async setToken(args) {
      await engine.setToken(args.name, args.token, args.keeping)
      return ctx.changed()
    },
    checkConnection: (args) => engine.checkConnection({ env: args.environment }),
    async setUnitLabel(args) {
      engine.environments.setUnitLabel(args.environment, args.unitLabel)
      return ctx.changed()
    },
  }
}
