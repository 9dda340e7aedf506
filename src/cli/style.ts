/**
 * Colour on the command line: only when the stream is a terminal, never when NO_COLOR is set to
 * anything (https://no-color.org), never on TERM=dumb; FORCE_COLOR (not "0") turns it on for
 * tools that want it through a pipe. Without colour every style returns the text unchanged.
 *
 * Printed text passes through terminalText, which strips every escape sequence (a service's
 * text must not drive the terminal). So a style does not write escape codes: it writes marks
 * (private-use characters around one of our few codes) that paintMarks turns into colour after
 * the stripping. A mark that came from elsewhere can at most colour text with our palette;
 * nothing can hide text or move the cursor.
 */
const OPEN = '\uE000'
const CLOSE = '\uE001'
const MARK = /\uE000(1|2|22|31|32|33|39)\uE001/g
const STRAY = /[\uE000\uE001]/g

/** Turns style marks into colour codes (or drops them when colour is off). */
export function paintMarks(text: string, enabled: boolean): string {
  return text
    .replace(MARK, (_, code: string) => (enabled ? `\x1b[${code}m` : ''))
    .replace(STRAY, '')
}

export interface Style {
  enabled: boolean
  red(text: string): string
  green(text: string): string
  yellow(text: string): string
  dim(text: string): string
  bold(text: string): string
}

export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0')
    return true
  if (env.TERM === 'dumb') return false
  return Boolean(stream.isTTY)
}

export function createStyle(enabled: boolean): Style {
  const sgr = (open: number, close: number) => (text: string) =>
    enabled && text ? `${OPEN}${open}${CLOSE}${text}${OPEN}${close}${CLOSE}` : text
  return {
    enabled,
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    dim: sgr(2, 22),
    bold: sgr(1, 22),
  }
}
