/** The app's settings: the outputs folder, notifications, downloads at once, theme, saves on end. */
import type { SettingsView } from '../../../shared/bridge'
import { EngineError } from '../../errors'
import type { VerbContext, Verbs } from './context'
import { defined } from '../../../shared/defined'

export function settingsVerbs(
  ctx: VerbContext<unknown>,
): Verbs<'getSettings' | 'updateSettings' | 'chooseOutputsFolder'> {
  const { settings } = ctx
  return {
    getSettings: async () => settings.read(),
    async updateSettings(args) {
      const { outputsFolder, notifications, downloadConcurrency, theme, autoSaveOutputs } = args
      return settings.update(
        defined({ outputsFolder, notifications, downloadConcurrency, theme, autoSaveOutputs }),
      )
    },
    /** The desktop's folder picker for the outputs folder (a browser page has none). */
    async chooseOutputsFolder(): Promise<SettingsView | null> {
      if (!ctx.dialogs.chooseFolder)
        throw new EngineError(
          'bad-input',
          'A browser cannot show this computer’s folders.',
          'Type the folder’s full path in the box and choose Save.',
        )
      const chosen = await ctx.dialogs.chooseFolder(
        'Where should Skill Runner save outputs?',
        settings.read().outputsFolder,
      )
      return chosen ? settings.update({ outputsFolder: chosen }) : null
    },
  }
}
