/**
 * A bounded preview of one artifact for the run detail: text, JSON, CSV and raster images. The
 * engine fetches the bytes (the token stays here; the page never sees a service URL), asks only
 * for the first bytes it can show (`Range`), and stops reading at the limit whatever the server
 * sends. Anything else is described in words, with no preview.
 */
import type { Artifact } from '../../../shared/contract'
import type { ArtifactPreviewView } from '../../../shared/bridge'
import type { ApiClient } from '../../service'
import { defined } from '../../../shared/defined'
import { formatBytes } from '../../../shared/format/bytes'

/** Text shown at most (bytes). */
export const TEXT_PREVIEW_BYTES = 64 * 1024
/** Images shown at most (bytes); larger ones are only saved. */
export const IMAGE_PREVIEW_BYTES = 2 * 1024 * 1024
/** CSV rows and columns shown at most. */
const CSV_ROWS = 200
const CSV_COLUMNS = 40

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])

export type PreviewKind = ArtifactPreviewView['kind']

/** What kind of preview a MIME type gets. */
export function previewKind(mimeType: string): PreviewKind {
  const type = mimeType.split(';')[0]!.trim().toLowerCase()
  if (type === 'text/csv' || type === 'application/csv') return 'csv'
  if (type === 'application/json' || type.endsWith('+json')) return 'json'
  if (IMAGE_TYPES.has(type)) return 'image'
  if (type.startsWith('text/') || type === 'application/xml' || type === 'application/x-ndjson')
    return 'text'
  return 'none'
}

/** Reads at most `limit` bytes of a response body, then lets go of the rest. */
async function readAtMost(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<{ bytes: Buffer; more: boolean }> {
  if (!body) return { bytes: Buffer.alloc(0), more: false }
  const reader = body.getReader()
  const chunks: Buffer[] = []
  let size = 0
  let more = false
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      const room = limit - size
      if (value.length > room) {
        chunks.push(Buffer.from(value.subarray(0, room)))
        size += room
        more = true
        break
      }
      chunks.push(Buffer.from(value))
      size += value.length
    }
  } finally {
    if (more) await reader.cancel().catch(() => {})
    reader.releaseLock()
  }
  return { bytes: Buffer.concat(chunks, size), more }
}

/** Splits CSV text into rows of cells (RFC 4180 quotes), up to the preview's bounds. */
export function parseCsvPreview(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  for (let i = 0; i < text.length && rows.length < CSV_ROWS; i += 1) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"'
        i += 1
      } else if (c === '"') quoted = false
      else cell += c
    } else if (c === '"') quoted = true
    else if (c === ',') {
      if (row.length < CSV_COLUMNS) row.push(cell)
      cell = ''
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1
      if (row.length < CSV_COLUMNS) row.push(cell)
      rows.push(row)
      row = []
      cell = ''
    } else cell += c
  }
  if ((cell || row.length) && rows.length < CSV_ROWS) {
    if (row.length < CSV_COLUMNS) row.push(cell)
    rows.push(row)
  }
  return rows
}

/** Cuts text at a character boundary no longer than `limit` UTF-8 bytes. */
function decodeText(bytes: Buffer): string {
  // A cut in the middle of a character leaves a replacement sign at the end; drop it.
  return new TextDecoder('utf-8').decode(bytes).replace(/\uFFFD$/, '')
}

function fromText(
  artifact: Artifact,
  kind: PreviewKind,
  text: string,
  truncated: boolean,
): ArtifactPreviewView {
  const base = {
    artifactId: artifact.artifactId,
    mimeType: artifact.mimeType,
    table: [] as string[][],
    dataUrl: '',
    truncated,
    note: '',
  }
  if (kind === 'json' && !truncated) {
    try {
      return { ...base, kind, text: JSON.stringify(JSON.parse(text), null, 2) }
    } catch {
      return { ...base, kind: 'text', text, note: 'This is not valid JSON; shown as text.' }
    }
  }
  if (kind === 'csv') return { ...base, kind, text, table: parseCsvPreview(text) }
  return { ...base, kind: kind === 'json' ? 'json' : 'text', text }
}

export async function previewArtifact(
  client: ApiClient,
  artifact: Artifact,
  options: { signal?: AbortSignal } = {},
): Promise<ArtifactPreviewView> {
  const kind = previewKind(artifact.mimeType || (artifact.inlineText ? 'text/plain' : ''))
  const none = (note: string): ArtifactPreviewView => ({
    artifactId: artifact.artifactId,
    mimeType: artifact.mimeType,
    kind: 'none',
    text: '',
    table: [],
    dataUrl: '',
    truncated: false,
    note,
  })
  if (kind === 'none')
    return none(`No preview for this kind of file (${artifact.mimeType || 'unknown type'}).`)
  if (artifact.inlineText && kind !== 'image') {
    const bytes = Buffer.from(artifact.inlineText, 'utf8')
    const cut = bytes.length > TEXT_PREVIEW_BYTES
    return fromText(
      artifact,
      kind,
      cut ? decodeText(bytes.subarray(0, TEXT_PREVIEW_BYTES)) : artifact.inlineText,
      cut,
    )
  }
  if (!artifact.accessUrl) return none('The service gave no content for this output.')
  const limit = kind === 'image' ? IMAGE_PREVIEW_BYTES : TEXT_PREVIEW_BYTES
  // Images are shown whole or not at all; text asks only for its first bytes.
  const response = await client.fetchArtifact(artifact.accessUrl, {
    headers: kind === 'image' ? {} : { Range: `bytes=0-${limit - 1}` },
    ...defined({ signal: options.signal }),
  })
  const length = Number(response.headers.get('content-length') ?? NaN)
  if (kind === 'image' && Number.isFinite(length) && length > limit) {
    await response.body?.cancel().catch(() => {})
    return none(
      `This image is too large to preview (${formatBytes(length)}). Save the outputs to see it.`,
    )
  }
  const { bytes, more } = await readAtMost(response.body, limit)
  const totalFromRange = /\/(\d+)$/.exec(response.headers.get('content-range') ?? '')
  const truncated = more || (totalFromRange !== null && Number(totalFromRange[1]) > bytes.length)
  if (kind === 'image') {
    if (more) return none('This image is too large to preview. Save the outputs to see it.')
    const type = artifact.mimeType.split(';')[0]!.trim().toLowerCase()
    return {
      ...none(''),
      kind: 'image',
      dataUrl: `data:${type};base64,${bytes.toString('base64')}`,
    }
  }
  return fromText(artifact, kind, decodeText(bytes), truncated)
}
