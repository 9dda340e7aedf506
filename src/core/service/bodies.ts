/**
 * Request bodies too large to build as one string (a workbook's bytes, a file being uploaded, the
 * rows of a run), written piece by piece as JSON so that memory stays near one chunk.
 */

/** A JSON body written piece by piece, for bodies too large to build as one string. */
export interface StreamedBody {
  /** Makes a fresh stream of the body's bytes (called again for a retry). */
  open(): ReadableStream<Uint8Array>
}

/** What a request may carry: a value sent as one JSON text, or a streamed JSON body. */
export type RequestBody = { json: unknown } | StreamedBody

/** `{ ...fields, "key":` followed by the opening of the value, e.g. `[` or `"`. */
function jsonPrefix(fields: Record<string, unknown>, key: string, opening: string): string {
  const head = JSON.stringify(fields)
  return `${head.slice(0, -1)}${head.length > 2 ? ',' : ''}${JSON.stringify(key)}:${opening}`
}

/**
 * A JSON body `{ ...fields, [key]: [b0,b1,...] }` streamed in chunks, so a large workbook never
 * becomes one huge array of numbers or one huge string.
 */
export function byteArrayJsonBody(
  fields: Record<string, unknown>,
  key: string,
  bytes: Uint8Array,
): StreamedBody {
  const prefix = jsonPrefix(fields, key, '[')
  const CHUNK = 64 * 1024
  return {
    open() {
      const encoder = new TextEncoder()
      let offset = 0
      let started = false
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (!started) {
            started = true
            controller.enqueue(encoder.encode(prefix))
            return
          }
          if (offset >= bytes.length) {
            controller.enqueue(encoder.encode(']}'))
            controller.close()
            return
          }
          const end = Math.min(bytes.length, offset + CHUNK)
          let text = offset === 0 ? '' : ','
          text += bytes.subarray(offset, end).join(',')
          offset = end
          controller.enqueue(encoder.encode(text))
        },
      })
    },
  }
}

/**
 * A JSON body `{ ...fields, [key]: "<base64>" }` whose base64 text comes from a stream of raw
 * byte chunks (e.g. a file read stream), encoded as it goes.
 */
export function base64JsonBody(
  fields: Record<string, unknown>,
  key: string,
  openBytes: () => AsyncIterable<Uint8Array>,
): StreamedBody {
  const prefix = jsonPrefix(fields, key, '"')
  return {
    open() {
      const encoder = new TextEncoder()
      let iterator: AsyncIterator<Uint8Array> | undefined
      // Base64 encodes 3 bytes at a time: bytes left over from one chunk wait for the next.
      let carry: Uint8Array = new Uint8Array(0)
      return new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode(prefix))
        },
        async pull(controller) {
          iterator ??= openBytes()[Symbol.asyncIterator]()
          const next = await iterator.next()
          if (next.done) {
            controller.enqueue(encoder.encode(`${Buffer.from(carry).toString('base64')}"}`))
            controller.close()
            return
          }
          const joined = carry.length ? Buffer.concat([carry, next.value]) : next.value
          const usable = joined.length - (joined.length % 3)
          carry = joined.subarray(usable)
          if (usable > 0) {
            controller.enqueue(
              encoder.encode(
                Buffer.from(joined.buffer, joined.byteOffset, usable).toString('base64'),
              ),
            )
          }
        },
        async cancel() {
          await iterator?.return?.()
        },
      })
    },
  }
}

/** Items of an array written at once in a streamed body. */
const ITEMS_PER_CHUNK = 256

/**
 * An array's items already written as JSON texts, read a few at a time where they are kept (a
 * journaled submission's rows, submission-rows.ts), so what is sent is those texts exactly.
 */
export class JsonTexts {
  constructor(
    readonly count: number,
    /** The texts of items `start` (included) to `end` (excluded): exactly `end - start`. */
    readonly read: (start: number, end: number) => string[],
  ) {}

  static of(items: readonly unknown[]): JsonTexts {
    return new JsonTexts(items.length, (start, end) =>
      items.slice(start, end).map((item) => JSON.stringify(item) ?? 'null'),
    )
  }
}

/**
 * `body` as JSON with its array `key` written a few items at a time: the same bytes as
 * JSON.stringify(body) (its fields in their order, those before the array and those after),
 * without the whole text ever being one string (a run's rows: runRows, execute). The array may
 * come as texts (JsonTexts): they are written as they are, each time the body is opened.
 */
export function arrayJsonBody(body: Record<string, unknown>, key: string): StreamedBody {
  const entries = Object.entries(body)
  const at = entries.findIndex(([name]) => name === key)
  const value = entries[at]?.[1] ?? []
  const items = value instanceof JsonTexts ? value : JsonTexts.of(value as unknown[])
  const prefix = jsonPrefix(Object.fromEntries(entries.slice(0, at)), key, '[')
  const after = JSON.stringify(Object.fromEntries(entries.slice(at + 1)))
  const suffix = after.length > 2 ? `],${after.slice(1)}` : ']}'
  return {
    open() {
      const encoder = new TextEncoder()
      let next = -1
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (next < 0) {
            next = 0
            controller.enqueue(encoder.encode(prefix))
            return
          }
          if (next >= items.count) {
            controller.enqueue(encoder.encode(suffix))
            controller.close()
            return
          }
          const end = Math.min(items.count, next + ITEMS_PER_CHUNK)
          const texts = items.read(next, end)
          // Fewer texts than asked for: the body would not be the one journaled.
          if (texts.length !== end - next) throw new Error('the rows to send are incomplete')
          controller.enqueue(encoder.encode(`${next === 0 ? '' : ','}${texts.join(',')}`))
          next = end
        },
      })
    },
  }
}
