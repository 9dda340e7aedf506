/**
 * Which cells show a number as a date, a time of day or a duration: decided by each cell
 * style's number format (a built-in one by its id, a custom one by its format code).
 */
import { attribute, startTags } from './xml'

// Built-in number formats (ECMA-376 18.8.30, and the East Asian ones Excel maps to dates).
const BUILTIN_DATES: ReadonlySet<number> = new Set([
  14, 15, 16, 17, 22, 27, 28, 29, 30, 31, 34, 35, 36, 50, 51, 52, 53, 54, 55, 56, 57, 58,
])
const BUILTIN_TIMES: ReadonlySet<number> = new Set([18, 19, 20, 21, 32, 33, 45, 47])
const BUILTIN_DURATIONS: ReadonlySet<number> = new Set([46])

/** How a number in a cell of this style is shown. */
export type Shown = 'number' | 'date' | 'datetime' | 'time' | 'time-s' | 'duration'

/** What a custom number format shows (its first section decides, as for positive numbers). */
export function formatKind(code: string): Shown {
  const section = code.split(/;(?=(?:[^"]*"[^"]*")*[^"]*$)/)[0] ?? ''
  const elapsed = /\[(h+|m+|s+)\]/i.test(section)
  const bare = section
    .replace(/"[^"]*"/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\\./g, '')
    .replace(/[_*]./g, '')
    .toLowerCase()
  if (elapsed) return 'duration'
  if (/general|^[@#0.,%?\s e+-]*$/.test(bare) && !/[dyhs]/.test(bare)) return 'number'
  const hasDate = /[dye]/.test(bare) || (/m/.test(bare) && !/[hs]/.test(bare))
  // AM/PM (or A/P) alone still shows a time of day.
  const hasTime = /[hs]/.test(bare) || /am\/pm|a\/p/.test(bare)
  if (hasDate) return hasTime ? 'datetime' : 'date'
  if (hasTime) return /s/.test(bare) ? 'time-s' : 'time'
  return 'number'
}

export function builtinKind(id: number): Shown {
  if (BUILTIN_DATES.has(id)) return id === 22 ? 'datetime' : 'date'
  if (BUILTIN_TIMES.has(id)) return id === 20 || id === 32 ? 'time' : 'time-s'
  if (BUILTIN_DURATIONS.has(id)) return 'duration'
  return 'number'
}

/** How each cell style (cellXfs index) shows numbers. */
export function styleKinds(stylesXml: string): Shown[] {
  const custom = new Map<number, string>()
  for (const tag of startTags(stylesXml, 'numFmt')) {
    const id = Number(attribute(tag, 'numFmtId'))
    if (Number.isInteger(id)) custom.set(id, attribute(tag, 'formatCode') ?? '')
  }
  const xfs = /<cellXfs\b[^>]*>([\s\S]*?)<\/cellXfs>/.exec(stylesXml)?.[1] ?? ''
  return startTags(xfs, 'xf').map((tag) => {
    const id = Number(attribute(tag, 'numFmtId') ?? 0)
    return custom.has(id) ? formatKind(custom.get(id)!) : builtinKind(id)
  })
}
