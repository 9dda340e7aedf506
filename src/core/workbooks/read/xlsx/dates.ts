/**
 * Numbers and ISO texts as the dates, times of day and durations Excel shows for them: a serial
 * number in a date-formatted cell (1900 or 1904 system), and a `t="d"` cell's ISO 8601 text.
 */
import type { CellValue } from '../../../../shared/input-schema'
import type { Shown } from './styles'

const DAY_MS = 86_400_000
/** Excel's last date, 9999-12-31, as a 1900-system serial. */
const LAST_SERIAL = 2_958_465

function two(n: number) {
  return n < 10 ? `0${n}` : String(n)
}

/** A time of day as Excel shows it: "14:30" or "14:30:05". */
function timeOfDay(fraction: number, seconds: boolean): string {
  let total = Math.round(fraction * 86_400)
  if (total >= 86_400) total = 0
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = total % 60
  return seconds ? `${two(h)}:${two(m)}:${two(s)}` : `${two(h)}:${two(m)}`
}

/** A duration in hours, minutes and seconds ("36:15:00"). */
function duration(days: number): string {
  const sign = days < 0 ? '-' : ''
  const total = Math.round(Math.abs(days) * 86_400)
  return `${sign}${two(Math.floor(total / 3600))}:${two(Math.floor((total % 3600) / 60))}:${two(total % 60)}`
}

/**
 * A serial number shown as a date. Outside Excel's dates (before 1900 or after 9999) the number
 * stays a number, so a date field says the cell is not a date instead of the file failing.
 * In the 1900 system, days before March 1900 follow Excel's calendar, which counts a
 * 29 February 1900 that never was: that day is text no date field accepts.
 */
export function serialValue(serial: number, kind: Shown, date1904: boolean): CellValue {
  if (kind === 'number' || !Number.isFinite(serial)) return serial
  if (kind === 'duration') return duration(serial)
  const fraction = serial - Math.floor(serial)
  if (kind === 'time' || kind === 'time-s') return timeOfDay(fraction, kind === 'time-s')
  const last = date1904 ? LAST_SERIAL - 1462 : LAST_SERIAL
  if (serial < 0 || serial >= last + 1) return serial
  const day = Math.floor(serial)
  if (day === 0 && !date1904) return kind === 'datetime' ? timeOfDay(fraction, true) : serial
  let epochDays: number
  if (date1904) epochDays = -24107
  else if (day < 60) epochDays = -25568
  else if (day === 60) return '1900-02-29'
  else epochDays = -25569
  const ms = Math.round((serial + epochDays) * DAY_MS)
  return new Date(kind === 'date' ? Math.floor(ms / DAY_MS) * DAY_MS : ms)
}

const ISO_VALUE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/
const TIME_VALUE = /^T?(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?$/

/**
 * A `t="d"` cell (ISO 8601, as Strict workbooks hold dates): a date, a date and time, or a time
 * of day, shown as the cell's style shows it, so that a file saved as Strict reads as the same
 * file saved as transitional (a date-only style shows the day, whatever time the cell holds).
 */
export function isoCellValue(text: string, kind?: Shown): CellValue {
  const value = isoValue(text)
  if (!(value instanceof Date)) return value
  const ms = value.getTime()
  if (kind === 'date') return new Date(Math.floor(ms / DAY_MS) * DAY_MS)
  if (kind === 'time' || kind === 'time-s')
    return timeOfDay((ms - Math.floor(ms / DAY_MS) * DAY_MS) / DAY_MS, kind === 'time-s')
  return value
}

function isoValue(text: string): CellValue {
  const value = text.trim()
  const time = TIME_VALUE.exec(value)
  if (time) return `${time[1]}:${time[2]}:${time[3] ?? '00'}`
  const m = ISO_VALUE.exec(value)
  if (!m) return value
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  // Excel writes a time of day as a date-time on its day 0.
  if (
    m[4] !== undefined &&
    ((year === 1899 && month === 12 && (day === 30 || day === 31)) ||
      (year === 1900 && month === 1 && day === 0))
  )
    return `${m[4]}:${m[5]}:${m[6] ?? '00'}`
  const ms =
    m[8] && m[8] !== 'Z'
      ? Date.parse(value)
      : Date.UTC(
          year,
          month - 1,
          day,
          Number(m[4] ?? 0),
          Number(m[5] ?? 0),
          Number(m[6] ?? 0),
          Math.round(Number(m[7] ?? 0) * 1000),
        )
  const date = new Date(ms)
  if (Number.isNaN(ms) || (date.getUTCDate() !== day && !m[8])) return value
  return date
}
