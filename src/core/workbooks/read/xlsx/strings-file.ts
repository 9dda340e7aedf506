/**
 * Shared strings past what the reader keeps in memory, in a temporary file: each string's UTF-8
 * bytes written one after another, read back by where they lie. A workbook whose every row
 * holds long text of its own keeps that text in its shared strings part, as much as the sheet
 * itself (150 MB for 100,000 rows of 1.5 KB); held whole, it would set the reader's peak.
 * The strings are asked for in about the order they were written, a row at a time, so the file
 * is read a window at a time (READ_WINDOW bytes from the string asked for) and the strings after
 * that one are cut from the window: one system call for hundreds of strings, not one each. A
 * string its writer knows to be ASCII is cut from the window's text, decoded once a window
 * (`readAscii`), rather than decoded on its own: a decode call for each of 300,000 strings was
 * most of what the spill still cost the workbooks bench's later read.
 *
 * The file is removed as soon as it is open (the open handle keeps it until closed, on Windows
 * too, where Node opens files shareable for deletion); `close()` lets the handle go, and a
 * list forgotten unclosed lets it go when it is collected.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Bytes gathered before each write to the file. */
const WRITE_CHUNK = 1024 * 1024

/** Bytes read from the file at once, from the first byte of the string asked for. */
const READ_WINDOW = 64 * 1024

const handles = new FinalizationRegistry<{ fd: number | null }>((held) => {
  if (held.fd !== null) closeSync(held.fd)
})

export class StringsFile {
  private readonly held: { fd: number | null }
  private size = 0
  private pending = Buffer.allocUnsafe(WRITE_CHUNK)
  private pendingLength = 0
  /** The bytes last read from the file: `windowLength` of them, from `windowStart`. */
  private window = Buffer.allocUnsafe(READ_WINDOW)
  private windowStart = 0
  private windowLength = 0
  /** The window's bytes as a text of one character a byte, decoded when first asked for. */
  private windowText: string | null = null

  constructor() {
    const dir = mkdtempSync(join(tmpdir(), 'skill-runner-strings-'))
    const path = join(dir, 'strings')
    this.held = { fd: openSync(path, 'w+') }
    // Gone from the folder now; the bytes live until the handle closes.
    rmSync(dir, { recursive: true, force: true })
    handles.register(this, this.held, this)
  }

  private get fd(): number {
    if (this.held.fd === null) throw new Error('the strings file is closed')
    return this.held.fd
  }

  /** Adds a string; answers where it lies (its first byte) and its length in bytes. */
  add(text: string): [number, number] {
    const length = Buffer.byteLength(text, 'utf8')
    if (this.pendingLength + length > this.pending.length) this.flush()
    if (length > this.pending.length) {
      writeSync(this.fd, Buffer.from(text, 'utf8'), 0, length, this.size)
    } else {
      this.pending.write(text, this.pendingLength, 'utf8')
      this.pendingLength += length
    }
    const at = this.size
    this.size += length
    return [at, length]
  }

  /** Writes what is gathered; every string added so far can then be read. */
  flush(): void {
    if (this.pendingLength === 0) return
    const start = this.size - this.pendingLength
    writeSync(this.fd, this.pending, 0, this.pendingLength, start)
    this.pendingLength = 0
  }

  /** The string whose bytes lie at `at`, `length` of them. */
  read(at: number, length: number): string {
    const from = this.cover(at, length)
    return this.window.toString('utf8', from, from + Math.min(length, this.windowLength - from))
  }

  /** As `read`, for a string whose bytes are all ASCII (a character a byte). */
  readAscii(at: number, length: number): string {
    const from = this.cover(at, length)
    this.windowText ??= this.window.toString('latin1', 0, this.windowLength)
    return this.windowText.slice(from, from + length)
  }

  /** Where the bytes at `at` start in the window, read from there first unless it holds them. */
  private cover(at: number, length: number): number {
    if (at < this.windowStart || at + length > this.windowStart + this.windowLength)
      this.fill(at, length)
    return at - this.windowStart
  }

  /** Reads the window from `at`: READ_WINDOW bytes, or `length` where that is more. */
  private fill(at: number, length: number): void {
    if (length > this.window.length) this.window = Buffer.allocUnsafe(length)
    const wanted = Math.max(length, Math.min(this.window.length, this.size - at))
    this.windowStart = at
    this.windowLength = 0
    this.windowText = null
    while (this.windowLength < wanted) {
      const done = this.windowLength
      const got = readSync(this.fd, this.window, done, wanted - done, at + done)
      if (got === 0) break
      this.windowLength += got
    }
  }

  close(): void {
    if (this.held.fd === null) return
    closeSync(this.held.fd)
    this.held.fd = null
    handles.unregister(this)
  }
}
