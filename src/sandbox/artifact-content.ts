/**
 * Serves an artifact's bytes at its accessUrl: owner only, with single-range `Range` requests
 * (206 + Content-Range) so clients can resume downloads, `If-Range` on the ETag, and HEAD.
 */
import { pipeline } from 'node:stream/promises'
import type { Answer, Call, SandboxContext } from './context'
import { type ArtifactRow, getRow } from './db'
import { HttpError, notFound } from './http'

export interface ByteRange {
  start: number
  end: number
}

/**
 * Reads a `Range` header for a body of `size` bytes. Returns undefined to send the whole body
 * (no header, a unit other than bytes, or several ranges), or throws 416 when unsatisfiable.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | undefined {
  if (!header) return undefined
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header)
  if (!match) return undefined
  const [, first = '', last = ''] = match
  const unsatisfiable = () =>
    new HttpError(416, `The range "${header}" is outside the ${size} bytes of this artifact.`, {
      'Content-Range': `bytes */${size}`,
    })
  if (first === '' && last === '') return undefined
  if (first === '') {
    const suffix = Number(last)
    if (suffix === 0 || size === 0) throw unsatisfiable()
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(first)
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1)
  if (last !== '' && Number(last) < start) return undefined
  if (start >= size) throw unsatisfiable()
  return { start, end }
}

function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`
}

function contentType(mimeType: string): string {
  return mimeType.startsWith('text/') || mimeType === 'application/json'
    ? `${mimeType}; charset=utf-8`
    : mimeType || 'application/octet-stream'
}

/** With urlTtlMs, an address without its end, or past it, is refused as a storage URL would be. */
function refuseExpired(ctx: SandboxContext, call: Call): void {
  if (ctx.urlTtlMs === undefined) return
  const expires = Number(call.url.searchParams.get('expires'))
  if (Number.isFinite(expires) && expires > 0 && Date.now() <= expires) return
  throw new HttpError(
    403,
    'This address of the artifact has expired; read the run again for a fresh one.',
  )
}

export async function artifactContentHandler(
  ctx: SandboxContext,
  call: Call,
): Promise<Answer | undefined> {
  const artifactId = call.params[0]!
  refuseExpired(ctx, call)
  const artifact = getRow<ArtifactRow>(
    ctx.db,
    'SELECT * FROM artifacts WHERE artifact_id = ? AND user_id = ?',
    artifactId,
    call.user.userId,
  )
  if (!artifact) throw notFound(`There is no artifact "${artifactId}" among your runs' artifacts.`)
  const inline =
    artifact.inline_text !== null ? Buffer.from(artifact.inline_text, 'utf8') : undefined
  let size = inline?.length
  if (size === undefined && artifact.blob_key) size = await ctx.blobs.size(artifact.blob_key)
  if (size === undefined) {
    throw new HttpError(
      500,
      `The bytes of artifact "${artifactId}" are missing from the sandbox's storage.`,
    )
  }
  const etag = `"${artifact.artifact_id}-${size}"`
  const ifRange = call.req.headers['if-range']
  const rangeAllowed = ifRange === undefined || ifRange === etag
  const range = rangeAllowed ? parseRange(call.req.headers.range, size) : undefined
  const headers: Record<string, string> = {
    'Content-Type': contentType(artifact.mime_type),
    'Accept-Ranges': 'bytes',
    ETag: etag,
    'Last-Modified': new Date(artifact.created_at_unix * 1000).toUTCString(),
    'Content-Disposition': contentDisposition(artifact.filename),
    'Cache-Control': 'private, no-cache',
  }
  const { res } = call
  if (range) {
    headers['Content-Range'] = `bytes ${range.start}-${range.end}/${size}`
    headers['Content-Length'] = String(range.end - range.start + 1)
    res.writeHead(206, headers)
  } else {
    headers['Content-Length'] = String(size)
    res.writeHead(200, headers)
  }
  if (call.req.method === 'HEAD' || size === 0) {
    res.end()
    return undefined
  }
  if (inline) {
    res.end(range ? inline.subarray(range.start, range.end + 1) : inline)
    return undefined
  }
  try {
    await pipeline(ctx.blobs.read(artifact.blob_key!, range), res)
  } catch {
    // The client went away or the file vanished mid-way: nothing more can be sent.
    res.destroy()
  }
  return undefined
}
