/**
 * The version a service reports on /version, as words. The interface leaves the body's shape
 * open, so the usual keys are tried; the engine's connection check and the window both say it.
 */
export function versionOf(body: unknown): string {
  if (typeof body === 'string') return body.trim().slice(0, 60)
  if (typeof body !== 'object' || body === null) return ''
  const b = body as Record<string, unknown>
  const pick = (...keys: string[]) => {
    for (const key of keys) {
      const v = b[key]
      if (typeof v === 'string' && v.trim()) return v.trim().slice(0, 60)
      if (typeof v === 'number') return String(v)
    }
    return ''
  }
  const version = pick('version', 'apiVersion', 'interfaceVersion', 'specVersion', 'build')
  const name = pick('name', 'service', 'product')
  return [name, version].filter(Boolean).join(' ')
}

/** The version step's sentence when /version answered. */
export function versionWords(body: unknown): string {
  const version = versionOf(body)
  return version ? `It runs version ${version}.` : 'It told which version it runs.'
}
