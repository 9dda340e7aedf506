/** Times as people read them: "just now", "5 min ago", "yesterday 14:05", "12 Mar 2025". */

// Intl formatters are slow to make and cheap to reuse: one per locale and kind.
const formatters = new Map<string, Intl.DateTimeFormat>()
function dateFormat(locale: string | undefined, kind: 'time' | 'date'): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${kind}`
  let format = formatters.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat(
      locale,
      kind === 'time'
        ? { hour: '2-digit', minute: '2-digit' }
        : { day: 'numeric', month: 'short', year: 'numeric' },
    )
    formatters.set(key, format)
  }
  return format
}

export function formatUnixTime(unix: number, nowMs: number, locale?: string): string {
  if (!unix || unix <= 0) return '—'
  const ms = unix * 1000
  const seconds = Math.round((nowMs - ms) / 1000)
  if (seconds >= 0 && seconds < 45) return 'just now'
  if (seconds >= 0 && seconds < 60 * 60) return `${Math.max(1, Math.round(seconds / 60))} min ago`
  const date = new Date(ms)
  const now = new Date(nowMs)
  const time = dateFormat(locale, 'time').format(date)
  if (sameDay(date, now)) return `today ${time}`
  const yesterday = new Date(nowMs - 24 * 60 * 60 * 1000)
  if (sameDay(date, yesterday)) return `yesterday ${time}`
  return dateFormat(locale, 'date').format(date)
}

function sameDay(a: Date, b: Date): boolean {
  return (
    a.getFullYear() === b.getFullYear() &&
    a.getMonth() === b.getMonth() &&
    a.getDate() === b.getDate()
  )
}
