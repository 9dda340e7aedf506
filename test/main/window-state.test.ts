import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  DEFAULT_WINDOW_STATE,
  fitToScreens,
  loadWindowState,
  saveWindowState,
} from '../../src/main/window-state'

const dir = mkdtempSync(join(tmpdir(), 'window-state-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('window state', () => {
  it('comes back as it was saved, with no temporary file left behind', async () => {
    const file = join(dir, 'a', 'window-state.json')
    await saveWindowState(file, { x: 40, y: 50, width: 1000, height: 700, maximized: true })
    expect(await loadWindowState(file)).toEqual({
      x: 40,
      y: 50,
      width: 1000,
      height: 700,
      maximized: true,
    })
    expect(readdirSync(join(dir, 'a'))).toEqual(['window-state.json'])
  })

  it('starts with the default size when the file is missing, damaged or odd', async () => {
    expect(await loadWindowState(join(dir, 'none.json'))).toEqual(DEFAULT_WINDOW_STATE)
    const damaged = join(dir, 'damaged.json')
    writeFileSync(damaged, '{"width": 10')
    expect(await loadWindowState(damaged)).toEqual(DEFAULT_WINDOW_STATE)
    const odd = join(dir, 'odd.json')
    writeFileSync(odd, JSON.stringify({ width: -5, height: 'tall' }))
    expect(await loadWindowState(odd)).toEqual(DEFAULT_WINDOW_STATE)
  })

  it('keeps the window on a screen that exists now', () => {
    const screen = { x: 0, y: 0, width: 1280, height: 800 }
    expect(
      fitToScreens({ x: 3000, y: 100, width: 900, height: 600, maximized: false }, [screen]),
    ).toEqual({
      width: 900,
      height: 600,
      maximized: false,
    })
    expect(
      fitToScreens({ x: 100, y: 100, width: 2000, height: 600, maximized: false }, [screen]),
    ).toEqual({
      x: 100,
      y: 100,
      width: 1280,
      height: 600,
      maximized: false,
    })
  })
})
