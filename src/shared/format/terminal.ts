/**
 * Text for a terminal that came from a file or a service: escape sequences (which can retitle,
 * clear or rewrite a terminal) and other control characters removed, line breaks and tabs kept.
 * Also drops the bidirectional overrides that make text read differently from what it holds.
 */

const ESC = String.fromCharCode(0x1b)
const BEL = String.fromCharCode(0x07)
const CSI = String.fromCharCode(0x9b)
const OSC = String.fromCharCode(0x9d)
const ST = String.fromCharCode(0x9c)

// Whole sequences first, so that no stray "[2J" is left behind: OSC (up to BEL or ST), CSI,
// and two-character escapes.
const SEQUENCES = new RegExp(
  [
    `(?:${ESC}\\]|${OSC})[^${BEL}${ESC}${ST}]*(?:${BEL}|${ESC}\\\\|${ST})?`,
    `(?:${ESC}\\[|${CSI})[0-9:;<=>?]*[ -/]*[@-~]?`,
    `${ESC}[PX^_][^${ESC}${ST}]*(?:${ESC}\\\\|${ST})?`,
    `${ESC}[ -/]*[0-~]?`,
  ].join('|'),
  'g',
)

function range(from: number, to: number): string {
  return `${String.fromCharCode(from)}-${String.fromCharCode(to)}`
}

// C0 controls except tab (09) and line feed (0a), DEL and the C1 controls, bidi overrides.
const CONTROLS = new RegExp(
  `[${range(0x00, 0x08)}${range(0x0b, 0x1f)}${range(0x7f, 0x9f)}\\u202a-\\u202e\\u2066-\\u2069]`,
  'g',
)

/** `text` safe to print on a terminal. */
export function terminalText(text: string): string {
  return text.replace(SEQUENCES, '').replace(CONTROLS, '')
}
