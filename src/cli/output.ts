/**
 * Where the CLI writes. With --json, stdout carries exactly one JSON document and everything
 * else (progress, notes) goes to stderr; without it, stdout gets readable text. Text holds
 * headers, file names and the service's messages, so control characters are stripped from all
 * of it before it reaches the terminal (JSON escapes them by itself). Colour only where a stream
 * is a terminal and NO_COLOR is not set: styles mark text, and the marks become colour codes
 * after the stripping (style.ts).
 */
import { terminalText } from '../shared/format/terminal'
import { startProgressBar, type ProgressBar, type ProgressUnit } from './progress'
import { colorEnabled, createStyle, paintMarks, type Style } from './style'

export interface Output {
  json: boolean
  /** The command's answer: JSON with --json, else the text `human` makes. */
  result(value: unknown, human?: (value: unknown) => string): void
  /**
   * The command's answer as a JSON document too big to build whole, written a part at a time on
   * stdout, each after the one before has gone (--json only).
   */
  resultParts(parts: Iterable<string>): Promise<void>
  /** A raw line on stdout, for the few announcements scripts wait for (e.g. "listening on"). */
  announce(line: string): void
  /** A note or progress line, always on stderr. */
  note(line: string): void
  /** Progress that redraws one stderr line when stderr is a terminal. */
  progress(line: string): void
  /** Ends a progress line. */
  endProgress(): void
  /** Whether progress redraws one line (stderr is a terminal). */
  redraws: boolean
  /** A progress bar with counts, rate and time left on stderr (progress.ts). */
  bar(label: string, unit: ProgressUnit): ProgressBar
  /** Colours for text on stdout, and for text on stderr (each off unless that is a terminal). */
  style: Style
  errStyle: Style
}

export interface OutputStreams {
  stdout: {
    write(text: string): unknown
    isTTY?: boolean
    once?(event: 'drain', listener: () => void): unknown
  }
  stderr: { write(text: string): unknown; isTTY?: boolean }
}

export function createOutput(
  json: boolean,
  streams: OutputStreams,
  env: NodeJS.ProcessEnv = {},
): Output {
  let progressShown = false
  const tty = Boolean(streams.stderr.isTTY)
  const style = createStyle(!json && colorEnabled(streams.stdout, env))
  const errStyle = createStyle(colorEnabled(streams.stderr, env))
  /** Printable text: control characters out first, then our own colour marks in. */
  const forOut = (text: string) => paintMarks(terminalText(text), style.enabled)
  const forErr = (text: string) => paintMarks(terminalText(text), errStyle.enabled)
  return {
    json,
    redraws: tty,
    style,
    errStyle,
    bar(label, unit) {
      return startProgressBar(this, label, unit)
    },
    result(value, human) {
      if (json) streams.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
      else {
        const text = forOut(human ? human(value) : JSON.stringify(value, null, 2))
        streams.stdout.write(text.endsWith('\n') ? text : `${text}\n`)
      }
    },
    async resultParts(parts) {
      const { stdout } = streams
      for (const part of parts)
        if (stdout.write(part) === false && stdout.once)
          await new Promise<void>((drained) => stdout.once!('drain', drained))
    },
    announce(line) {
      streams.stdout.write(`${forOut(line)}\n`)
    },
    note(line) {
      this.endProgress()
      streams.stderr.write(`${forErr(line)}\n`)
    },
    progress(line) {
      if (tty) {
        streams.stderr.write(`\r\x1b[2K${forErr(line)}`)
        progressShown = true
      } else streams.stderr.write(`${forErr(line)}\n`)
    },
    endProgress() {
      if (progressShown) streams.stderr.write('\n')
      progressShown = false
    },
  }
}

/**
 * A plain text table: columns padded to their widest cell. `paint` colours a cell after it is
 * padded (so escape codes never upset the widths); row -1 is the header.
 */
export function table(
  headers: string[],
  rows: string[][],
  paint?: (padded: string, row: number, column: number) => string,
): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[], row: number) => {
    const last = cells.length - 1
    const padded = cells.map((c, i) => (i === last ? c : c.padEnd(widths[i]!)))
    // Trailing spaces go before colouring, so a painted line never ends in blanks.
    if (padded.length > 0) padded[last] = padded[last]!.trimEnd()
    const text = padded.map((c, i) => (paint ? paint(c, row, i) : c)).join('  ')
    return text.trimEnd()
  }
  return [line(headers, -1), ...rows.map((r, i) => line(r, i))].join('\n')
}
