/**
 * How much of a service's answer the client reads. A broken or hostile service can send an
 * endless body; the client never holds more than these limits, and never waits past the
 * request's deadline for the next piece. Artifact downloads go to disk and are not bounded here.
 */

import { UserFacingError } from '../../shared/errors'

/**
 * The largest JSON answer read whole (a page of runs is a few hundred KB). A run's detail is read
 * as a stream instead, with bounds of its own (run-detail-stream.ts).
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024
/** The largest error body read: its `error` text is all that is kept of it. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024

/**
 * Why a streamed answer stopped before its end: it is not JSON (or not all of it came), or one of
 * its parts went past its own bound (`part` in a message's words: "one output of a run").
 */
export type StreamFault =
  { kind: 'not-json' } | { kind: 'too-large'; part: string; limitBytes: number }

/**
 * Thrown to stop a streamed reading; streamFaultOf looks inside and the transport answers with an
 * ApiError naming the request. Should one ever reach a person, it still says what happened.
 */
class StreamStop extends UserFacingError {
  readonly category = 'unavailable' as const
  constructor(readonly fault: StreamFault) {
    super(
      fault.kind === 'not-json'
        ? 'The service sent an answer Skill Runner could not read.'
        : `The service sent ${fault.part} larger than Skill Runner reads.`,
      'Try again in a few minutes; if it keeps happening, tell the service’s operator.',
    )
  }
}

/** The error that stops a streamed reading for `fault`. */
export function stopStream(fault: StreamFault): Error {
  return new StreamStop(fault)
}

/** Why a streamed reading stopped, when `error` is what stopped it; undefined otherwise. */
export function streamFaultOf(error: unknown): StreamFault | undefined {
  return error instanceof StreamStop ? error.fault : undefined
}

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
  const chunks: Uint8Array[] = []
  let size = 0
  const complete = await eachChunk(body, signal, (chunk) => {
    const room = limit - size
    if (chunk.length > room) {
      if (room > 0) chunks.push(chunk.subarray(0, room))
      size = limit
      return false
    }
    chunks.push(chunk)
    size += chunk.length
    return true
  })
  return { bytes: Buffer.concat(chunks, size), complete }
}

/**
 * The longest a reading works on pieces already come before it lets the engine's other work run
 * (ms). A body's pieces that wait in the socket are each read at once, without a turn of the
 * event loop between them: a look at a run's detail of 25 MB, each piece parsed and stored as it
 * came, held the engine (its Bridge, its other watchers) for seconds at a time.
 */
const BREATHE_AFTER_MS = 15

/**
 * For long work done a piece at a time on the engine's thread: `await breathe()` after each
 * piece gives the event loop a turn once every BREATHE_AFTER_MS, and costs nothing in between.
 */
export function breather(): () => Promise<void> | undefined {
  let breathed = performance.now()
  return () => {
    if (performance.now() - breathed < BREATHE_AFTER_MS) return undefined
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        breathed = performance.now()
        resolve()
      }),
    )
  }
}

/**
 * Hands each piece of a body to `take` as it comes, stopping when `signal` aborts. `take`
 * returns false to stop there (the body is cancelled; the answer is false), or throws to stop
 * with its error; the body is cancelled on any error. True once the body has ended. Between two
 * pieces, the event loop is given a turn once every BREATHE_AFTER_MS of reading.
 *
 * An abort cancels the reader, which ends a read under way at once; the signal's reason is then
 * thrown. Each read is not raced against a promise of the abort: a promise that lives as long as
 * the body keeps every race's answer, so each piece read would stay in memory until the body
 * ended (a run's detail of 25 MB, whole, for every reading at once).
 */
export async function eachChunk(
  body: ReadableStream<Uint8Array> | null,
  signal: AbortSignal | undefined,
  take: (chunk: Uint8Array) => boolean,
): Promise<boolean> {
  if (!body) return true
  const reader = body.getReader()
  const onAbort = () => void reader.cancel(signal?.reason).catch(() => {})
  signal?.addEventListener('abort', onAbort, { once: true })
  const breathe = breather()
  try {
    for (;;) {
      signal?.throwIfAborted()
      const next = await reader.read()
      signal?.throwIfAborted()
      if (next.done) return true
      if (!take(next.value)) {
        await reader.cancel().catch(() => {})
        return false
      }
      await breathe()
    }
  } catch (error) {
    await reader.cancel().catch(() => {})
    // A body broken off by the abort (its connection destroyed) stops with the abort's reason.
    throw signal?.aborted ? signal.reason : error
  } finally {
    signal?.removeEventListener('abort', onAbort)
  }
}

/**
 * One attempt's deadline. An answer read whole must be in before it; a streamed answer, read
 * part by part into storage, moves it on with every piece that comes (`moved`), so only a service
 * that goes quiet for the whole time is cut, never one that is still sending a big answer.
 */
export class Deadline {
  private readonly controller = new AbortController()
  private timer: ReturnType<typeof setTimeout> | undefined
  private lastMove = Date.now()

  constructor(private readonly ms: number) {
    this.arm(ms)
  }

  get signal(): AbortSignal {
    return this.controller.signal
  }

  get passed(): boolean {
    return this.controller.signal.aborted
  }

  /** Something came: the time starts again from now. */
  moved(): void {
    this.lastMove = Date.now()
  }

  /** The attempt is over: no timer is left behind. */
  dispose(): void {
    clearTimeout(this.timer)
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => {
      const quiet = Date.now() - this.lastMove
      if (quiet < this.ms) return this.arm(this.ms - quiet)
      this.controller.abort(new DOMException('The operation timed out.', 'TimeoutError'))
    }, ms)
    // A deadline never keeps the process alive on its own (as AbortSignal.timeout's does not).
    ;(this.timer as { unref?: () => void }).unref?.()
  }
}
