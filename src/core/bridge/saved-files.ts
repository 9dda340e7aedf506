/**
 * Files the app makes for the user (an input workbook, a marked-up copy): saved where the desktop
 * app's save dialog says, or sent to the page as bytes, which a browser downloads. Only files
 * saved this way in this session may be opened from the app.
 */
import { basename } from 'node:path'
import type { SavedFileView } from '../../shared/bridge'
import { EngineError } from '../errors'
import { bytesOfTemporary } from '../files/temporary'
import type { ShellDialogs } from './types'

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

export class SavedFiles {
  /** Files saved through the save dialog in this session: the only ones "Open" may open. */
  private readonly saved = new Set<string>()

  constructor(
    private readonly home: string,
    private readonly dialogs: ShellDialogs,
  ) {}

  /** Writes a file the app makes; null when the user cancelled the save dialog. */
  async deliver(
    name: string,
    title: string,
    write: (path: string) => Promise<void>,
    mimeType = XLSX_MIME,
  ): Promise<SavedFileView | null> {
    if (this.dialogs.chooseSavePath) {
      const path = await this.dialogs.chooseSavePath(name, title)
      if (path === null) return null
      await write(path)
      this.saved.add(path)
      return {
        kind: 'path',
        fileName: basename(path),
        path,
        canOpen: Boolean(this.dialogs.openPath),
      }
    }
    const bytes = await bytesOfTemporary(this.home, name, write)
    return { kind: 'bytes', fileName: name, mimeType, base64: bytes.toString('base64') }
  }

  async open(path: string): Promise<void> {
    if (!this.dialogs.openPath || !this.saved.has(path)) {
      throw new EngineError(
        'not-allowed',
        'Skill Runner opens only the files it saved for you in this session.',
        'Open the file from its folder.',
      )
    }
    await this.dialogs.openPath(path)
  }
}
