/** The Settings screen. */
import * as z from 'zod'
import type { SettingsView } from '../views/settings'
import { noArgs, request } from './arguments'

/** What Settings may change; every key optional, nothing else accepted. */
export const settingsPatchSchema = z.strictObject({
  outputsFolder: z
    .string()
    .trim()
    .min(1, 'Choose a folder for the outputs.')
    .max(4096)
    .refine(
      (p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\'),
      'Give the folder’s full path, e.g. /home/me/Outputs or C:\\Users\\me\\Outputs.',
    )
    .optional(),
  notifications: z.boolean().optional(),
  downloadConcurrency: z
    .number()
    .int('Use a whole number.')
    .min(1, 'Use at least 1.')
    .max(32, 'Use at most 32.')
    .optional(),
  theme: z.enum(['system', 'light', 'dark']).optional(),
  autoSaveOutputs: z.boolean().optional(),
})

export const settingsRequests = {
  getSettings: request<SettingsView>()(noArgs),
  updateSettings: request<SettingsView>()(settingsPatchSchema),
  /** The desktop's folder picker for the outputs folder: the new settings, or null if cancelled. */
  chooseOutputsFolder: request<SettingsView | null>()(noArgs),
}
