/**
 * The text of a part's unpacked bytes, in whatever Unicode encoding it was written (a BOM, or
 * UTF-16 without one, says which), decoded chunk by chunk as the part streams out of the zip.
 */
import { isAscii } from 'node:buffer'
import { StringDecoder } from 'node:string_decoder'

/** Which text encoding an XML part is in, from its first bytes (BOM, or UTF-16 without one). */
export function xmlEncoding(head: Uint8Array): {
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be'
  bom: number
} {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', bom: 3 }
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bom: 2 }
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bom: 2 }
  if (head[0] === 0x3c && head[1] === 0x00) return { encoding: 'utf-16le', bom: 0 }
  if (head[0] === 0x00 && head[1] === 0x3c) return { encoding: 'utf-16be', bom: 0 }
  return { encoding: 'utf-8', bom: 0 }
}

interface ChunkDecoder {
  write(bytes: Buffer): string
  /** The bytes' text kept outside V8's heap when they can be (null: write them instead). */
  outside?(bytes: Buffer): string | null
  end(): string
}

/**
 * UTF-8 through node's StringDecoder, several times faster than TextDecoder's streaming decode
 * (the sheet is most of the file). As TextDecoder does, it replaces broken sequences with
 * U+FFFD and drops a byte order mark that starts the text (one after the mark xmlEncoding took).
 */
function utf8Decoder(outsideHeap: boolean): ChunkDecoder {
  const decoder = new StringDecoder('utf8')
  let started = false
  /** No byte past ASCII so far: the decoder has been given nothing, and holds nothing. */
  let ascii = outsideHeap
  const start = (text: string) => {
    if (started || !text) return text
    started = true
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  }
  // ASCII reads the same as Latin-1, which node keeps outside V8's heap past EXTERNAL_BYTES.
  const outside = (bytes: Buffer) =>
    ascii && bytes.length > EXTERNAL_BYTES && isAscii(bytes)
      ? start(bytes.toString('latin1'))
      : null
  const write = (bytes: Buffer) => {
    ascii = false
    return start(decoder.write(bytes))
  }
  return { write, outside, end: () => start(decoder.end()) }
}

function utf16Decoder(encoding: 'utf-16le' | 'utf-16be'): ChunkDecoder {
  const decoder = new TextDecoder(encoding)
  return { write: (bytes) => decoder.decode(bytes, { stream: true }), end: () => decoder.decode() }
}

/**
 * A part's unpacked bytes as text chunks, in whatever Unicode encoding it was written. With
 * `outsideHeap`, an ASCII chunk longer than EXTERNAL_BYTES becomes text outside V8's heap.
 */
export async function* textChunks(
  chunks: AsyncIterable<Buffer>,
  outsideHeap = false,
): AsyncGenerator<string> {
  let decoder: ChunkDecoder | null = null
  for await (const chunk of chunks) {
    let bytes = chunk
    if (!decoder) {
      const { encoding, bom } = xmlEncoding(chunk)
      decoder = encoding === 'utf-8' ? utf8Decoder(outsideHeap) : utf16Decoder(encoding)
      bytes = chunk.subarray(bom)
    }
    const whole = decoder.outside?.(bytes)
    if (whole) {
      yield whole
      continue
    }
    // Pieces of at most PIECE_BYTES: a string larger than V8's largest young object (128 KB) is
    // placed in a space of its own, made and freed for each, which costs more than decoding.
    for (let at = 0; at < bytes.length; at += PIECE_BYTES) {
      const text = decoder.write(bytes.subarray(at, at + PIECE_BYTES))
      if (text) yield text
    }
  }
  const rest = decoder?.end() ?? ''
  if (rest) yield rest
}

/**
 * Node makes the text of more bytes than this (its EXTERN_APEX, just under 1 MB) in Latin-1 as
 * a string outside V8's heap: the collector never copies its characters.
 */
const EXTERNAL_BYTES = 0xfbee9
const PIECE_BYTES = 64 * 1024
const BLOCK_BYTES = 1536 * 1024

/**
 * The unpacked bytes in blocks of at least BLOCK_BYTES (the last one may be shorter), each
 * copied into the same buffer: a block is decoded before the next is asked for, and a buffer
 * per block would be freed only when the collector gets to it (tens of MB held meanwhile).
 */
async function* blocks(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let block: Buffer | null = null
  let size = 0
  for await (const chunk of chunks) {
    if (!block || size + chunk.length > block.length) {
      const larger = Buffer.allocUnsafe(Math.max(BLOCK_BYTES, size + chunk.length))
      if (block) block.copy(larger, 0, 0, size)
      block = larger
    }
    chunk.copy(block, size)
    size += chunk.length
    if (size < BLOCK_BYTES) continue
    yield block.subarray(0, size)
    size = 0
  }
  if (block && size > 0) yield block.subarray(0, size)
}

/**
 * The text of a part that is kept for the whole read (the shared strings, tens of MB of them):
 * in blocks of 1.5 MB, each of them, while the part is ASCII, outside V8's heap. Kept in 64 KB
 * strings of the heap, it was copied twice by young collections, then marked by every full one.
 * (A sheet's text lives for a chunk only: outside the heap, it would wait for a collection to be
 * freed, and peak memory would grow by what waits.)
 */
export function keptTextChunks(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  return textChunks(blocks(chunks), true)
}

export function decodeText(bytes: Buffer): string {
  const { encoding, bom } = xmlEncoding(bytes)
  return new TextDecoder(encoding).decode(bytes.subarray(bom))
}
