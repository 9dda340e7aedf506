/**
 * The words of a header and of a template's field, put in one form so that "E-mail address",
 * "customerEmail" and "Mail" can be compared: split at case changes and punctuation, lower
 * case, common synonyms folded onto one word, filler words dropped.
 */

/** Each group's words mean the same thing in a header; the first is the one kept. */
const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['email', 'mail', 'emailaddress'],
  ['url', 'link', 'website', 'web', 'site', 'page', 'href', 'homepage'],
  ['phone', 'telephone', 'tel', 'mobile', 'cell'],
  ['name', 'title', 'label'],
  ['product', 'item', 'article', 'sku', 'goods'],
  ['tone', 'voice', 'style', 'mood'],
  ['words', 'wordcount', 'length'],
  ['text', 'message', 'body', 'content', 'msg'],
  ['description', 'desc', 'details', 'detail', 'summary', 'notes', 'note', 'comments', 'comment'],
  ['id', 'identifier', 'ref', 'reference', 'number', 'no', 'nr', 'num', 'code'],
  ['date', 'day', 'when', 'on', 'received', 'created'],
  ['price', 'cost', 'amount', 'eur', 'usd', 'value'],
  ['count', 'quantity', 'qty', 'units', 'stock', 'inventory'],
  ['file', 'path', 'document', 'doc', 'attachment', 'attachments', 'pdf'],
  ['customer', 'client', 'buyer', 'user'],
  ['language', 'lang', 'locale'],
  ['category', 'type', 'kind', 'group'],
  ['features', 'feature', 'benefits', 'highlights'],
  ['vip', 'priority', 'important'],
  ['pages', 'pagecount'],
  ['sequence', 'seq', 'order', 'position', 'index'],
]

const CANONICAL = new Map<string, string>()
for (const group of SYNONYM_GROUPS) for (const word of group) CANONICAL.set(word, group[0]!)

/** Words that say nothing about which field a column is. */
const FILLER = new Set([
  'the',
  'a',
  'an',
  'of',
  'for',
  'to',
  'in',
  'your',
  'my',
  'our',
  'and',
  'or',
  'required',
  'optional',
  'e',
])

/** "E-mail address*" -> ["email"]; "customerEmail" -> ["customer", "email"]. */
export function wordsOf(text: string): string[] {
  const spaced = text
    .replace(/\b[Ee]-mail\b/g, 'email')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
  const out: string[] = []
  for (const raw of spaced.split(/[^a-z0-9]+/)) {
    if (!raw || FILLER.has(raw)) continue
    // "address" alone means little, but "email address" is the email.
    if (raw === 'address' && out.includes('email')) continue
    out.push(CANONICAL.get(raw) ?? raw)
  }
  return out
}

/** A header as the exact-but-forgiving comparison sees it: no case, spaces, punctuation or marker. */
export function looseKey(text: string): string {
  const lower = text
    .replace(/\s*\*\s*$/, '')
    .replace(/\s*\((required|optional)\)\s*$/i, '')
    .toLowerCase()
  // Printable lower-case ASCII and spaces hold no letters or digits but a-z and 0-9; the Unicode
  // classes cost a small validate 4 M instructions to compile, so only other text uses them.
  return /^[\s!-~]*$/.test(lower)
    ? lower.replace(/[^a-z0-9]+/g, '')
    : lower.replace(/[^\p{L}\p{N}]+/gu, '')
}

/** How much of `header`'s words the field's words cover (0..1), weighted toward the header. */
export function wordOverlap(header: readonly string[], field: ReadonlySet<string>): number {
  if (header.length === 0 || field.size === 0) return 0
  let shared = 0
  for (const word of new Set(header)) if (field.has(word)) shared += 1
  return shared / new Set(header).size
}
