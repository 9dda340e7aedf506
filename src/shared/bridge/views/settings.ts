/** Views of the Settings screen. */

export type ThemeChoice = 'system' | 'light' | 'dark'

/** The app's settings, kept in the engine's history database (never in the window). */
export interface SettingsView {
  /** Where outputs and results workbooks are saved. */
  outputsFolder: string
  /** The folder used when none was chosen (the platform's Downloads/Skill Runner). */
  defaultOutputsFolder: string
  /** A desktop notification when a run submitted from this device ends. */
  notifications: boolean
  /** Files fetched at once while saving outputs. */
  downloadConcurrency: number
  theme: ThemeChoice
  /** Every run's outputs saved to the outputs folder as soon as the run ends (default on). */
  autoSaveOutputs: boolean
}
