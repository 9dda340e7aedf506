/**
 * Which built UI file a request asks for. Used by the desktop app's custom protocol and by
 * browser mode, so both serve exactly the same files with the same rules: only files under the
 * renderer's build folder, never a path outside it.
 */

/**
 * The relative file path for a URL path ("/" -> "index.html", "/assets/a.js" -> "assets/a.js"),
 * or null when the path tries to leave the folder or names something odd.
 */
export function uiFileForPath(urlPath: string): string | null {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return null
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null
  const segments = decoded.split('/').filter((s) => s !== '' && s !== '.')
  if (segments.some((s) => s === '..' || s.startsWith('.'))) return null
  if (segments.length === 0) return 'index.html'
  return segments.join('/')
}

const MIME_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/x-icon',
  woff2: 'font/woff2',
  map: 'application/json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
}

export function mimeTypeFor(file: string): string {
  const ext = file.slice(file.lastIndexOf('.') + 1).toLowerCase()
  return MIME_TYPES[ext] ?? 'application/octet-stream'
}
