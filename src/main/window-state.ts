/**
 * Remembers the window's size and place between starts, in window-state.json in the app's data
 * folder. Written atomically (temporary file + rename): a crash never leaves half a file, and a
 * damaged or odd file is ignored rather than trusted.
 */
import { readFile } from 'node:fs/promises'
import { writePrivateJson } from './private-json-file'
import * as z from 'zod'

export interface WindowState {
  x?: number
  y?: number
  width: number
  height: number
  maximized: boolean
}

export interface Area {
  x: number
  y: number
  width: number
  height: number
}

const stateSchema = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(200).max(20000),
  height: z.number().int().min(200).max(20000),
  maximized: z.boolean().default(false),
})

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1200, height: 800, maximized: false }

export async function loadWindowState(file: string): Promise<WindowState> {
  try {
    const parsed = stateSchema.safeParse(JSON.parse(await readFile(file, 'utf8')))
    return parsed.success ? parsed.data : { ...DEFAULT_WINDOW_STATE }
  } catch {
    return { ...DEFAULT_WINDOW_STATE }
  }
}

export function saveWindowState(file: string, state: WindowState): Promise<void> {
  return writePrivateJson(file, state)
}

/**
 * Fits a remembered state to the screens there are now: a window whose remembered place is on
 * a screen that is gone is centred (no position) and shrunk to fit the primary work area.
 */
export function fitToScreens(state: WindowState, workAreas: Area[]): WindowState {
  const primary = workAreas[0]
  const fitted: WindowState = { ...state }
  if (primary) {
    fitted.width = Math.min(state.width, primary.width)
    fitted.height = Math.min(state.height, primary.height)
  }
  if (state.x === undefined || state.y === undefined) return withoutPosition(fitted)
  const visible = workAreas.some((area) =>
    overlap(area, { x: state.x!, y: state.y!, width: 100, height: 40 }),
  )
  return visible ? fitted : withoutPosition(fitted)
}

function withoutPosition(state: WindowState): WindowState {
  const { x: _x, y: _y, ...rest } = state
  return rest
}

function overlap(a: Area, b: Area): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}
