const UNITS = ['KB', 'MB', 'GB', 'TB'] as const

/**
 * A size in a person's words, the one way every screen, command and message writes one:
 * "812 bytes", "1.5 KB", "64 KB", "2.3 MB", "1.2 GB". Units of 1,024; one decimal below 10 of
 * a unit (never a trailing ".0"), whole numbers from 10 up. No size (null, as the service may
 * say of an output) or no number is "size not known".
 */
export function formatBytes(bytes: number | null): string {
  if (bytes === null || !Number.isFinite(bytes) || bytes < 0) return 'size not known'
  if (bytes < 1023.5) {
    const whole = Math.round(bytes)
    return `${whole} ${whole === 1 ? 'byte' : 'bytes'}`
  }
  let value = bytes / 1024
  let unit = 0
  for (;;) {
    const shown = value < 10 ? Math.round(value * 10) / 10 : Math.round(value)
    // 1023.7 KB would show as "1024 KB": it is 1 MB.
    if (shown < 1024 || unit === UNITS.length - 1) return `${shown} ${UNITS[unit]}`
    value /= 1024
    unit++
  }
}
