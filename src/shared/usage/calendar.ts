/**
 * Days and months in a time zone: which day and month a moment falls in, as "2026-11-28" and
 * "2026-11", for the computer's own calendar (the month a buyer means by "this month"). Pure:
 * the time zone is passed in, so tests put a run at a month's edge in any zone.
 */

/**
 * A moment's day as "YYYY-MM-DD" in one time zone. The zone's offset is asked of Intl once per
 * UTC day, at its start: a day whose offset is the next day's too (every day but the one or two
 * a year when the clocks change) is read by arithmetic; on the others each quarter hour is asked
 * (every zone's offset is a whole number of quarter hours). 10,000 runs over a year cost a few
 * hundred Intl calls instead of one per run.
 */
export class Calendar {
  private readonly parts: Intl.DateTimeFormat
  /** The offset (seconds) of each UTC day, or null on a day the clocks change. */
  private readonly offsets = new Map<number, number | null>()
  private readonly slots = new Map<number, string>()
  private readonly starts = new Map<number, number>()
  private readonly names = new Map<number, string>()

  constructor(readonly timeZone: string) {
    this.parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
  }

  /** The day of a moment in Unix seconds. */
  day(unix: number): string {
    const utcDay = Math.floor(unix / 86_400)
    let offset = this.offsets.get(utcDay)
    if (offset === undefined) {
      const start = this.startOffset(utcDay)
      offset = start === this.startOffset(utcDay + 1) ? start : null
      this.offsets.set(utcDay, offset)
    }
    if (offset !== null) return this.dayOf(unix + offset)
    const slot = Math.floor(unix / 900)
    let day = this.slots.get(slot)
    if (day === undefined) {
      day = isoDay(slot * 900 + this.offsetAt(slot * 900))
      this.slots.set(slot, day)
    }
    return day
  }

  month(unix: number): string {
    return this.day(unix).slice(0, 7)
  }

  /** The offset at the start of a UTC day, asked once per day. */
  private startOffset(utcDay: number): number {
    let offset = this.starts.get(utcDay)
    if (offset === undefined) {
      offset = this.offsetAt(utcDay * 86_400)
      this.starts.set(utcDay, offset)
    }
    return offset
  }

  /** The day of a wall-clock moment, made once per day. */
  private dayOf(wall: number): string {
    const n = Math.floor(wall / 86_400)
    let day = this.names.get(n)
    if (day === undefined) {
      day = isoDay(n * 86_400)
      this.names.set(n, day)
    }
    return day
  }

  /** Seconds the zone's wall clock is ahead of UTC at a moment. */
  private offsetAt(unix: number): number {
    const p: Record<string, number> = {}
    for (const part of this.parts.formatToParts(new Date(unix * 1000))) {
      if (part.type !== 'literal') p[part.type] = Number(part.value)
    }
    const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) / 1000
    return wall - unix
  }
}

/** The UTC calendar day of a moment, as "YYYY-MM-DD". */
function isoDay(unix: number): string {
  return new Date(unix * 1000).toISOString().slice(0, 10)
}

/** The `count` days up to and including `last` ("YYYY-MM-DD"), oldest first. */
export function daysUpTo(last: string, count: number): string[] {
  const [y, m, d] = last.split('-').map(Number) as [number, number, number]
  const out: string[] = []
  for (let i = count - 1; i >= 0; i--) {
    // Noon UTC of a calendar date stays on that date whatever is added in whole days.
    out.push(new Date(Date.UTC(y, m - 1, d - i, 12)).toISOString().slice(0, 10))
  }
  return out
}

/** The `count` months up to and including `last` ("YYYY-MM"), oldest first. */
export function monthsUpTo(last: string, count: number): string[] {
  const [y, m] = last.split('-').map(Number) as [number, number]
  const out: string[] = []
  for (let i = count - 1; i >= 0; i--) {
    out.push(new Date(Date.UTC(y, m - 1 - i, 1, 12)).toISOString().slice(0, 7))
  }
  return out
}

/** The month before "YYYY-MM". */
export function monthBefore(month: string): string {
  return monthsUpTo(month, 2)[0]!
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** "Nov 28" for a day, "Nov 2026" for a month: how a chart's axis and table name a period. */
export function periodLabel(period: string): string {
  const [y, m, d] = period.split('-')
  const month = MONTHS[Number(m) - 1] ?? m
  return d === undefined ? `${month} ${y}` : `${month} ${Number(d)}`
}
