/**
 * The app's settings (outputs folder, notifications, download concurrency, theme), kept in the
 * history database's `settings` table so that every front door on this computer shares them and
 * they survive restarts. Values are checked when read: a hand-edited or older value that no
 * longer makes sense falls back to its default instead of breaking a download.
 */
import { homedir } from 'node:os'
import { isAbsolute, join } from 'node:path'
import type { SettingsView, ThemeChoice } from '../../shared/bridge'
import { EngineError } from '../errors'
import { getSetting, setSetting, transaction, type Db } from './db'

const KEYS = {
  outputsFolder: 'outputsFolder',
  notifications: 'notifications',
  downloadConcurrency: 'downloadConcurrency',
  theme: 'theme',
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
  constructor(
    private readonly db: Db,
    private readonly defaultFolder: () => string = defaultOutputsFolder,
  ) {}

  read(): SettingsView {
    const folder = getSetting(this.db, KEYS.outputsFolder)
    const concurrency = Number(getSetting(this.db, KEYS.downloadConcurrency))
    const theme = getSetting(this.db, KEYS.theme) as ThemeChoice | null
    const defaultFolder = this.defaultFolder()
    return {
      outputsFolder: folder && isAbsolute(folder) ? folder : defaultFolder,
      defaultOutputsFolder: defaultFolder,
      notifications: getSetting(this.db, KEYS.notifications) !== 'off',
      downloadConcurrency:
        Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= MAX_DOWNLOAD_CONCURRENCY
          ? concurrency
          : DEFAULT_DOWNLOAD_CONCURRENCY,
      theme: theme && THEMES.includes(theme) ? theme : 'system',
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
        setSetting(this.db, KEYS.outputsFolder, patch.outputsFolder.trim())
      if (patch.notifications !== undefined)
        setSetting(this.db, KEYS.notifications, patch.notifications ? 'on' : 'off')
      if (concurrency !== undefined)
        setSetting(this.db, KEYS.downloadConcurrency, String(concurrency))
      if (patch.theme !== undefined) setSetting(this.db, KEYS.theme, patch.theme)
    })
    return this.read()
  }
}
