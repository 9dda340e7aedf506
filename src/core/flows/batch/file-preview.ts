/**
 * A batch row's preview when its kept output is a file, not text the service gave inline: the
 * file's name (as saved here, else as the service's address or the output names it), and when
 * that file is saved on this computer and is short text, its first line.
 * Nothing is downloaded to preview. The detail's output is remembered in the row's preview as a
 * mark (its id and name) that only this module writes and reads.
 */
import { open } from 'node:fs/promises'
import { basename, extname } from 'node:path'
import type { Artifact } from '../../../shared/contract'

const MARK = '\u0000file\u0000'
/** Saved files read for a first line: text, and no bigger than this. */
const SMALL_TEXT_BYTES = 64 * 1024
const HEAD_BYTES = 4096
const LINE_CHARS = 120
const TEXT_KINDS = new Set(['.txt', '.md', '.csv', '.tsv', '.json', '.html', '.xml', '.log'])

/** The file's name as the service serves it (its address's last part), else its output's name. */
function fileNameOf(artifact: Artifact): string {
  try {
    const last = new URL(artifact.accessUrl, 'http://x/').pathname.split('/').pop() ?? ''
    const name = decodeURIComponent(last)
    if (extname(name)) return name
  } catch {
    // Not an address: named by its output below.
  }
  return `${artifact.portName || 'an output'} (file)`
}

/** What a row's preview holds for a file output. */
export function fileMark(artifact: Artifact): string {
  return `${MARK}${artifact.artifactId}${MARK}${fileNameOf(artifact)}`
}

/** A stored preview's file output, or null for text. */
function markOf(preview: string): { artifactId: string; name: string } | null {
  if (!preview.startsWith(MARK)) return null
  const [artifactId = '', name = ''] = preview.slice(MARK.length).split(MARK)
  return { artifactId, name }
}

/**
 * A JSON output's fields in words ("message: hello, sequence: 4"): its first line alone would be
 * "{". Nested values are named by their kind; '' when the text is not JSON.
 */
function jsonWords(text: string): string {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return ''
  }
  const said = (v: unknown) =>
    v === null ? '—' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? '…' : String(v)
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return said(value)
  return Object.entries(value)
    .map(([key, v]) => `${key}: ${said(v)}`)
    .join(', ')
}

/** The first line of a short text file, or '' when it is not one (or cannot be read). */
async function firstLine(path: string): Promise<string> {
  if (!TEXT_KINDS.has(extname(path).toLowerCase())) return ''
  const file = await open(path, 'r').catch(() => null)
  if (!file) return ''
  try {
    const { size } = await file.stat()
    if (size > SMALL_TEXT_BYTES) return ''
    const json = extname(path).toLowerCase() === '.json'
    const head = Buffer.alloc(Math.min(size, json ? SMALL_TEXT_BYTES : HEAD_BYTES))
    await file.read(head, 0, head.length, 0)
    if (json) return jsonWords(head.toString('utf8')).slice(0, LINE_CHARS)
    const line =
      head
        .toString('utf8')
        .split(/\r?\n/)
        .find((l) => l.trim() !== '') ?? ''
    return line.trim().slice(0, LINE_CHARS)
  } finally {
    await file.close()
  }
}

/**
 * The preview to show: text as it was, or for a file output its name, with its first line when
 * `savedPath` finds it saved here as short text.
 */
export async function shownPreview(
  preview: string,
  savedPath: (artifactId: string) => string | undefined,
): Promise<string> {
  const mark = markOf(preview)
  if (!mark) return preview
  const path = savedPath(mark.artifactId)
  if (!path) return mark.name
  // Saved: named as the buyer finds it in the folder.
  const line = await firstLine(path)
  return line ? `${basename(path)} — ${line}` : basename(path)
}
