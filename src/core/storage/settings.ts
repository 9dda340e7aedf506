/**
 * The app's settings (outputs folder, saving outputs when a run ends, notifications, download
 * concurrency, theme), kept in the
 * history database's `settings` table so that every front door on this computer shares them and
 * they survive restarts. Values are checked when read: a hand-edited or older value that no
 * longer makes sense falls back to its default instead of breaking a download.
 */
import { homedir } from 'node:os'
import { isAbsolute, join } from 'node:path'
import type { SettingsView, ThemeChoice } from '../../shared/bridge'
import { EngineError } from '../errors'
import { transaction, type Db } from './db'
import { SettingsTable } from './tables/settings'

const KEYS = {
  outputsFolder: 'outputsFolder',
  notifications: 'notifications',
  downloadConcurrency: 'downloadConcurrency',
  theme: 'theme',
  autoSaveOutputs: 'autoSaveOutputs',
} as const

export const DEFAULT_DOWNLOAD_CONCURRENCY = 8
export const MAX_DOWNLOAD_CONCURRENCY = 32
const THEMES: readonly ThemeChoice[] = ['system', 'light', 'dark']

/** The platform's Downloads/Skill Runner: where outputs go until the user picks a folder. */
export function defaultOutputsFolder(): string {
  return join(homedir(), 'Downloads', 'Skill Runner')
}

export type SettingsPatch = Partial<Omit<SettingsView, 'defaultOutputsFolder'>>

export class Settings {
  private readonly table: SettingsTable

  constructor(
    private readonly db: Db,
    private readonly defaultFolder: () => string = defaultOutputsFolder,
  ) {
    this.table = new SettingsTable(db)
  }

  read(): SettingsView {
    const folder = this.table.get(KEYS.outputsFolder)
    const concurrency = Number(this.table.get(KEYS.downloadConcurrency))
    const savedTheme = this.table.get(KEYS.theme)
    const defaultFolder = this.defaultFolder()
    return {
      outputsFolder: folder && isAbsolute(folder) ? folder : defaultFolder,
      defaultOutputsFolder: defaultFolder,
      notifications: this.table.get(KEYS.notifications) !== 'off',
      downloadConcurrency:
        Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= MAX_DOWNLOAD_CONCURRENCY
          ? concurrency
          : DEFAULT_DOWNLOAD_CONCURRENCY,
      theme: THEMES.find((theme) => theme === savedTheme) ?? 'system',
      autoSaveOutputs: this.table.get(KEYS.autoSaveOutputs) !== 'off',
    }
  }

  /** Changes the given settings together (all or none) and returns them all. */
  update(patch: SettingsPatch): SettingsView {
    if (patch.outputsFolder !== undefined && !isAbsolute(patch.outputsFolder.trim()))
      throw new EngineError(
        'bad-input',
        `“${patch.outputsFolder}” is not a full folder path.`,
        'Give the folder’s full path, starting from the drive or from /.',
        { fields: { outputsFolder: 'Give the full path of a folder' } },
      )
    const concurrency = patch.downloadConcurrency
    if (
      concurrency !== undefined &&
      (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_DOWNLOAD_CONCURRENCY)
    )
      throw new EngineError(
        'bad-input',
        `Downloads at once must be a whole number from 1 to ${MAX_DOWNLOAD_CONCURRENCY}.`,
        'Pick a number in that range.',
        { fields: { downloadConcurrency: `Use 1 to ${MAX_DOWNLOAD_CONCURRENCY}` } },
      )
    transaction(this.db, () => {
      if (patch.outputsFolder !== undefined)
        this.table.set(KEYS.outputsFolder, patch.outputsFolder.trim())
      if (patch.notifications !== undefined)
        this.table.set(KEYS.notifications, patch.notifications ? 'on' : 'off')
      if (concurrency !== undefined) this.table.set(KEYS.downloadConcurrency, String(concurrency))
      if (patch.theme !== undefined) this.table.set(KEYS.theme, patch.theme)
      if (patch.autoSaveOutputs !== undefined)
        this.table.set(KEYS.autoSaveOutputs, patch.autoSaveOutputs ? 'on' : 'off')
    })
    return this.read()
  }
}
