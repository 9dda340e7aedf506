/**
 * A service's words are not trusted: one that echoes the bearer token back (in an error text, a
 * redirect's address, a value a schema rejected) must not get it shown, logged or kept. Every
 * ApiError passes the service's text through a redactor before it builds its message.
 */

/** What stands where a secret was. */
const HIDDEN = '[hidden]'

/** Text in, the same text with every secret it knows of hidden. */
export type Redact = (text: string) => string

/** The value after "Bearer" is a credential, whoever's it is. */
const BEARER = /\b(Bearer)(\s+)[^\s"'“”‘’,;)<>]+/gi

/** Hides bearer values: what is known of secrets when no token is at hand. */
export function redactBearer(text: string): string {
  return text.replace(BEARER, `$1$2${HIDDEN}`)
}

/**
 * A redactor for the stored token: it hides the token as is and percent-encoded, anything shaped
 * like it (see shapeOf), and every bearer value.
 */
export function redactorFor(token: string | null | undefined): Redact {
  if (!token) return redactBearer
  const forms = [...new Set([token, encodeURIComponent(token)])]
  const patterns = forms.map((form) => new RegExp(escapeRegExp(form), 'g'))
  const shape = shapeOf(token)
  if (shape) patterns.push(shape)
  return (text) =>
    patterns.reduce((out, pattern) => out.replace(pattern, HIDDEN), redactBearer(text))
}

/**
 * Keys are often a fixed prefix and a random part (`sr_live_9fK2…`). A word with the stored
 * token's prefix and a random part nearly as long is another key of the same kind, and is hidden
 * too. Without a prefix, a long word of the token's alphabet that mixes letters and digits is.
 * Short tokens have no shape worth matching: only they themselves are hidden.
 */
function shapeOf(token: string): RegExp | null {
  if (token.length < 16) return null
  const prefix = /^(?:[A-Za-z]+[-_.])+/.exec(token)?.[0] ?? ''
  const rest = token.slice(prefix.length)
  const alphabet = alphabetOf(rest)
  const least = Math.max(8, Math.floor(rest.length * 0.75))
  if (prefix) {
    return new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(prefix)}[${alphabet}]{${least},}`, 'g')
  }
  const word = `[${alphabet}]`
  return new RegExp(
    `(?<!${word})(?=${word}*[0-9])(?=${word}*[A-Za-z])${word}{${Math.max(20, least)},}`,
    'g',
  )
}

/** The character class (without brackets) of the characters a random part is made of. */
function alphabetOf(text: string): string {
  let alphabet = ''
  if (/[A-Za-z]/.test(text)) alphabet += 'A-Za-z'
  if (/[0-9]/.test(text)) alphabet += '0-9'
  for (const symbol of '-_.~+/=') if (text.includes(symbol)) alphabet += `\\${symbol}`
  return alphabet || 'A-Za-z0-9'
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')
}
