/**
 * How much of a service's answer the client reads. A broken or hostile service can send an
 * endless body; the client never holds more than these limits, and never waits past the
 * request's deadline for the next piece. Artifact downloads go to disk and are not bounded here.
 */

/** The largest JSON answer read (a page of runs is a few hundred KB). */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024
/** The largest error body read: its `error` text is all that is kept of it. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024

/** What came of reading a body up to a limit. */
export interface BodyRead {
  /** The bytes read, at most the limit. */
  bytes: Buffer
  /** False when the body went on past the limit (it was cancelled there). */
  complete: boolean
}

/**
 * Reads a body up to `limit` bytes, racing every read against `signal`, so a body that trickles
 * ends when the deadline does (whatever fetch was given). Past the limit the body is cancelled.
 * Rejects with the signal's reason when it aborts, or with the network's error when the body
 * breaks off.
 */
export async function readAtMost(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  signal?: AbortSignal,
): Promise<BodyRead> {
  if (!body) return { bytes: Buffer.alloc(0), complete: true }
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  const stopped = abortPromise(signal)
  try {
    for (;;) {
      const next = await (stopped ? Promise.race([reader.read(), stopped.promise]) : reader.read())
      if (next.done) return { bytes: Buffer.concat(chunks, size), complete: true }
      const room = limit - size
      if (next.value.length > room) {
        if (room > 0) chunks.push(next.value.subarray(0, room))
        await reader.cancel().catch(() => {})
        return { bytes: Buffer.concat(chunks, limit), complete: false }
      }
      chunks.push(next.value)
      size += next.value.length
    }
  } catch (error) {
    await reader.cancel().catch(() => {})
    throw error
  } finally {
    stopped?.dispose()
  }
}

/** A promise that rejects when `signal` aborts (with its reason), and a way to stop listening. */
function abortPromise(
  signal: AbortSignal | undefined,
): { promise: Promise<never>; dispose(): void } | null {
  if (!signal) return null
  let onAbort = () => {}
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason)
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
  })
  // Only a race ever awaits it; a rejection after the race is settled is not a failure.
  promise.catch(() => {})
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) }
}

/** A limit in the words of a message: "32 MB", "64 KB". */
export function sizeInWords(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / (1024 * 1024))} MB`
  return `${Math.round(bytes / 1024)} KB`
}
