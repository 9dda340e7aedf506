// On a new computer the outputs folder (the app's own default, Downloads/Skill Runner) does not
// exist yet, and often neither does Downloads: the first save of either kind makes it. A folder
// that cannot be made is named in the message.
import { existsSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runFolderName } from '../../src/core/flows/downloads/downloads'
import { ipc, sendRowEcho } from '../helpers/engine'
import { useLocalBridge } from '../helpers/local-bridge'

const { engine, connection, bridge, home } = useLocalBridge(
  'sr-outputs-folder-',
  join('Downloads', 'Skill Runner'),
)
let runId: string

beforeAll(async () => {
  const rows = [{ message: 'first' }, { message: 'second' }]
  runId = await sendRowEcho(engine, connection, rows, [2, 3])
})

describe('the outputs folder', () => {
  it('is made by the first "Save results workbook", Downloads included', async () => {
    const folder = join(home(), 'Downloads', 'Skill Runner')
    expect(existsSync(join(home(), 'Downloads'))).toBe(false)
    const saved = await bridge.handlers.saveResultsWorkbook({ environment: 'Local', runId }, ipc)
    expect(dirname(saved.path)).toBe(folder)
    expect(basename(saved.path)).toMatch(/^Row echo - .* results\.xlsx$/)
    expect(existsSync(saved.path)).toBe(true)
  })

  it('is made by the first "Save all outputs" too', async () => {
    const chosen = join(home(), 'new place', 'outputs')
    await bridge.handlers.updateSettings({ outputsFolder: chosen }, ipc)
    const saved = await bridge.handlers.downloadRun({ environment: 'Local', runId }, ipc)
    expect(saved).toMatchObject({ folder: join(chosen, runFolderName(runId)), failed: [] })
    expect(saved?.savedFiles).toBeGreaterThan(0)
  })

  it('names a folder that cannot be made', async () => {
    const notAFolder = join(home(), 'a file')
    writeFileSync(notAFolder, 'not a folder')
    await bridge.handlers.updateSettings({ outputsFolder: join(notAFolder, 'outputs') }, ipc)
    for (const save of ['saveResultsWorkbook', 'downloadRun'] as const) {
      const failure = bridge.handlers[save]({ environment: 'Local', runId }, ipc)
      await expect(failure).rejects.toMatchObject({ code: 'invalid-arguments' })
      await expect(failure).rejects.toThrow(notAFolder)
    }
  })
})
