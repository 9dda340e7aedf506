/**
 * JSON lines gathered for a file in one buffer that every write uses again: each line is encoded
 * straight into it, so a megabyte of lines makes no joined text and no encoded copy of one. A
 * batch of 100,000 rows with 2 KB outputs is 400 MB of lines, and joining then encoding them had
 * made twice that in garbage, which the JavaScript heap grew to hold between collections. Used
 * by the read's row spill (validate/row-spill.ts) and the results workbook's rows file.
 */
import { writeSync } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'

const BUFFER_BYTES = 1024 * 1024

export class JsonLines {
  private buffer = Buffer.allocUnsafe(BUFFER_BYTES)
  private used = 0

  /**
   * Adds `line` (a JSON text; its newline is added here) when it fits after the lines held, and
   * answers its length in bytes, newline included; answers 0 when the lines held must be written
   * out first. A line longer than the buffer, added to an empty one, gets a buffer of its size.
   */
  add(line: string): number {
    const bytes = Buffer.byteLength(line) + 1
    if (this.used + bytes > this.buffer.length) {
      if (this.used > 0) return 0
      this.buffer = Buffer.allocUnsafe(bytes)
    }
    this.used += this.buffer.write(line, this.used)
    this.buffer[this.used++] = 10
    return bytes
  }

  /** Writes the lines held to the file `fd` (at its position) and lets them go. */
  writeTo(fd: number): void {
    for (let done = 0; done < this.used;) done += writeSync(fd, this.buffer, done, this.used - done)
    this.used = 0
  }

  /** As `writeTo`, to a file opened with fs/promises. */
  async writeToFile(file: FileHandle): Promise<void> {
    for (let done = 0; done < this.used;)
      done += (await file.write(this.buffer, done, this.used - done)).bytesWritten
    this.used = 0
  }

  /** The lines held are let go unwritten. */
  drop(): void {
    this.used = 0
  }
}
