/**
 * Where the CLI writes. With --json, stdout carries exactly one JSON document and everything
 * else (progress, notes) goes to stderr; without it, stdout gets readable text.
 */
export interface Output {
  json: boolean
  /** The command's answer: JSON with --json, else the text `human` makes. */
  result(value: unknown, human?: (value: unknown) => string): void
  /** A raw line on stdout, for the few announcements scripts wait for (e.g. "listening on"). */
  announce(line: string): void
  /** A note or progress line, always on stderr. */
  note(line: string): void
  /** Progress that redraws one stderr line when stderr is a terminal. */
  progress(line: string): void
  /** Ends a progress line. */
  endProgress(): void
}

export interface OutputStreams {
  stdout: { write(text: string): unknown }
  stderr: { write(text: string): unknown; isTTY?: boolean }
}

export function createOutput(json: boolean, streams: OutputStreams): Output {
  let progressShown = false
  const tty = Boolean(streams.stderr.isTTY)
  return {
    json,
    result(value, human) {
      if (json) streams.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
      else {
        const text = human ? human(value) : JSON.stringify(value, null, 2)
        streams.stdout.write(text.endsWith('\n') ? text : `${text}\n`)
      }
    },
    announce(line) {
      streams.stdout.write(`${line}\n`)
    },
    note(line) {
      this.endProgress()
      streams.stderr.write(`${line}\n`)
    },
    progress(line) {
      if (tty) {
        streams.stderr.write(`\r\x1b[2K${line}`)
        progressShown = true
      } else streams.stderr.write(`${line}\n`)
    },
    endProgress() {
      if (progressShown) streams.stderr.write('\n')
      progressShown = false
    },
  }
}

/** A plain text table: columns padded to their widest cell. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd()
  return [line(headers), ...rows.map(line)].join('\n')
}
