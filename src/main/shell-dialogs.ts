/**
 * The system's dialogs and file manager, as the engine's flows ask for them: where to save a
 * workbook, which folder takes the outputs, and opening or showing a saved file. Dialogs attach
 * to the main window when one is open.
 */
import { app, dialog, shell, type BrowserWindow } from 'electron'
import { join } from 'node:path'
import type { AppEngineOptions } from './app-engine'

type ShellDialogOptions = Pick<
  AppEngineOptions,
  'chooseSavePath' | 'openPath' | 'showItemInFolder' | 'chooseFolder' | 'downloadsFolder'
>

export function electronShellDialogs(parent: () => BrowserWindow | null): ShellDialogOptions {
  return {
    chooseSavePath: async (suggestedName, title) => {
      const options = {
        title,
        buttonLabel: 'Save',
        defaultPath: join(app.getPath('documents'), suggestedName),
        filters: [{ name: 'Excel workbook', extensions: ['xlsx'] }],
        properties: ['createDirectory' as const, 'showOverwriteConfirmation' as const],
      }
      const window = parent()
      const answer = window
        ? await dialog.showSaveDialog(window, options)
        : await dialog.showSaveDialog(options)
      return answer.canceled || !answer.filePath ? null : answer.filePath
    },
    openPath: async (path) => {
      const problem = await shell.openPath(path)
      if (problem) throw new Error(problem)
    },
    showItemInFolder: (path) => shell.showItemInFolder(path),
    chooseFolder: async (title, current) => {
      const options = {
        title,
        buttonLabel: 'Save outputs here',
        defaultPath: current,
        properties: ['openDirectory' as const, 'createDirectory' as const],
      }
      const window = parent()
      const answer = window
        ? await dialog.showOpenDialog(window, options)
        : await dialog.showOpenDialog(options)
      return answer.canceled ? null : (answer.filePaths[0] ?? null)
    },
    downloadsFolder: app.getPath('downloads'),
  }
}
