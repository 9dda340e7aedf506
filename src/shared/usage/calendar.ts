/**
 * Days and months in a time zone: which day and month a moment falls in, as "2026-11-28" and
 * "2026-11", for the computer's own calendar (the month a buyer means by "this month"). Pure:
 * the time zone is passed in, so tests put a run at a month's edge in any zone.
 */

/** A moment's day as "YYYY-MM-DD" in one time zone, remembered per quarter hour. */
export class Calendar {
  private readonly format: Intl.DateTimeFormat
  /** Every zone's offset is a whole number of quarter hours, so one answer holds for 900 s. */
  private readonly days = new Map<number, string>()

  constructor(readonly timeZone: string) {
    this.format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    })
  }

  /** The day of a moment in Unix seconds. */
  day(unix: number): string {
    const slot = Math.floor(unix / 900)
    let day = this.days.get(slot)
    if (day === undefined) {
      day = this.format.format(new Date(slot * 900_000))
      this.days.set(slot, day)
    }
    return day
  }

  month(unix: number): string {
    return this.day(unix).slice(0, 7)
  }
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
