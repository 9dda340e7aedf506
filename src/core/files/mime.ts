/** MIME types by file extension, for uploads and downloads (a small, common set). */
import { extname } from 'node:path'

const BY_EXTENSION: Record<string, string> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.mp4': 'video/mp4',
  '.zip': 'application/zip',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.xls': 'application/vnd.ms-excel',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
}

export function mimeTypeOf(path: string): string {
  return BY_EXTENSION[extname(path).toLowerCase()] ?? 'application/octet-stream'
}

/** The usual extension (with the dot) for a MIME type; '.bin' when unknown. */
export function extensionOf(mimeType: string): string {
  const base = mimeType.split(';')[0]!.trim().toLowerCase()
  if (base === 'text/plain') return '.txt'
  if (base === 'image/jpeg') return '.jpg'
  if (base === 'text/html') return '.html'
  for (const [ext, type] of Object.entries(BY_EXTENSION)) if (type === base) return ext
  if (base.startsWith('text/')) return '.txt'
  if (base.endsWith('+json')) return '.json'
  return '.bin'
}
