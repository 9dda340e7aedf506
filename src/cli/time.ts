/**
 * Times on the command line: in the user's time zone (the system's, or TZ), as
 * "2026-11-23 10:21 CET": sortable, unambiguous, and the zone said. JSON output keeps the
 * service's own values (Unix seconds, ISO 8601 in UTC).
 */
export function localTime(unixSeconds: number, timeZone?: string): string {
  if (!(unixSeconds > 0)) return '-'
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).formatToParts(new Date(unixSeconds * 1000))
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')} ${part('timeZoneName')}`
}
