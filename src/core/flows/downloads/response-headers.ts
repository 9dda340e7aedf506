/** What an artifact's HTTP answer says about the file: its suggested name, size and range. */
import type { HttpAnswer } from '../../service'

/** The file name a Content-Disposition header suggests (RFC 6266 `filename*` first). */
export function dispositionName(header: string | null): string | null {
  if (!header) return null
  const star = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header)
  if (star) {
    try {
      return decodeURIComponent(star[2]!.trim().replace(/^"|"$/g, ''))
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i.exec(header)
  if (!plain) return null
  return (plain[2] ?? plain[1]!).replace(/\\(.)/g, '$1').trim()
}

/** The first byte a 206 answer holds, from Content-Range. */
export function contentRangeStart(response: HttpAnswer): number | null {
  const match = /bytes (\d+)-\d+\/(\d+|\*)/.exec(response.headers.get('content-range') ?? '')
  return match ? Number(match[1]) : null
}

/** The whole file's size: from Content-Range on a 206, else Content-Length. */
export function totalSize(response: HttpAnswer, start: number): number | null {
  if (response.status === 206) {
    const match = /bytes \d+-\d+\/(\d+)/.exec(response.headers.get('content-range') ?? '')
    if (match) return Number(match[1])
  }
  const length = response.headers.get('content-length')
  return length !== null && /^\d+$/.test(length) ? Number(length) + start : null
}
