/** Times as people read them: "just now", "5 min ago", "yesterday 14:05", "12 Mar 2025". */

// Intl formatters are slow to make and cheap to reuse: one per locale and kind.
const formatters = new Map<string, Intl.DateTimeFormat>()
const TIME = { hour: '2-digit', minute: '2-digit' } as const
const DATE = { day: 'numeric', month: 'short', year: 'numeric' } as const
const KINDS = { time: TIME, date: DATE, 'date-time': { ...DATE, ...TIME } }

/** What part of a moment is shown: "14:05", "12 Mar 2025" or "12 Mar 2025, 14:05". */
export type MomentKind = keyof typeof KINDS

function dateFormat(locale: string | undefined, kind: MomentKind): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${kind}`
  let format = formatters.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat(locale, KINDS[kind])
    formatters.set(key, format)
  }
  return format
}

/** A moment as the kind says, in the user's locale. */
export function formatMoment(date: Date, kind: MomentKind, locale?: string): string {
  return dateFormat(locale, kind).format(date)
}

/** A service's Unix time (seconds) as the kind says; '—' when it has none (0). */
export function formatUnixMoment(unix: number, kind: MomentKind, locale?: string): string {
  return unix ? formatMoment(new Date(unix * 1000), kind, locale) : '—'
}

/**
 * How long ago something was saved or last used: "just now" under a whole minute, then "3 minutes
 * ago", "5 hours ago", "4 days ago". Minutes are floored, so a minute is said only once it has
 * passed; the window and the CLI both say it this way.
 */
export function describeAge(atMs: number, nowMs = Date.now()): string {
  const minutes = Math.max(0, Math.floor((nowMs - atMs) / 60_000))
  if (minutes < 1) return 'just now'
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`
  const hours = Math.round(minutes / 60)
  if (hours < 48) return `${hours} hour${hours === 1 ? '' : 's'} ago`
  return `${Math.round(hours / 24)} days ago`
}

export function formatUnixTime(unix: number, nowMs: number, locale?: string): string {
  if (!unix || unix <= 0) return '—'
  const ms = unix * 1000
  const seconds = Math.round((nowMs - ms) / 1000)
  if (seconds >= 0 && seconds < 45) return 'just now'
  if (seconds >= 0 && seconds < 60 * 60) return `${Math.max(1, Math.round(seconds / 60))} min ago`
  const date = new Date(ms)
  // One formatting a call: an older day is said by its date alone (a list formats one per row).
  const time = () => dateFormat(locale, 'time').format(date)
  if (sameDay(date, new Date(nowMs))) return `today ${time()}`
  const yesterday = new Date(nowMs - 24 * 60 * 60 * 1000)
  if (sameDay(date, yesterday)) return `yesterday ${time()}`
  return dateFormat(locale, 'date').format(date)
}

function sameDay(a: Date, b: Date): boolean {
  return (
    a.getFullYear() === b.getFullYear() &&
    a.getMonth() === b.getMonth() &&
    a.getDate() === b.getDate()
  )
}
