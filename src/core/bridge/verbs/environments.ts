/** The environments and the connection check: the sidebar and the connection card. */
import type { AppInfo } from '../../../shared/bridge'
import type { VerbContext, Verbs } from './context'

export function environmentVerbs(
  ctx: VerbContext,
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
      return { ...ctx.options.app, shell: ctx.options.shell, secretStore: engine.secretStoreView() }
    },
    listEnvironments: () => ctx.environments(),
    async addEnvironment(args) {
      await engine.addEnvironment({ name: args.name, baseUrl: args.baseUrl, token: args.token })
      return ctx.changed()
    },
    async removeEnvironment(args) {
      ctx.follower.unwatch(args.name)
      await engine.removeEnvironment(args.name)
      return ctx.changed()
    },
    async useEnvironment(args) {
      ctx.sessionDefault.name = null
      engine.useEnvironment(args.name)
      return ctx.changed()
    },
    async setToken(args) {
      await engine.setToken(args.name, args.token)
      return ctx.changed()
    },
    checkConnection: (args) => engine.checkConnection({ env: args.environment }),
    async setUnitLabel(args) {
      engine.environments.setUnitLabel(args.environment, args.unitLabel)
      return ctx.changed()
    },
  }
}
