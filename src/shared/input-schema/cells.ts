/**
 * From what a user typed in a spreadsheet cell to the value the service expects (the wire
 * values decided for the project): text-like types and dates are strings (dates ISO 8601),
 * integer and number are numbers, boolean is a boolean, a file is `{ inputAssetId }`, `{ url }`
 * or `{ text }` (a local path stays `{ localPath }` until it is uploaded), and a multiValue field
 * is an array. Every problem is a sentence that names the cell as the user sees it.
 *
 * Isomorphic: the app, the CLI and the sandbox's validateWorkbook all use this.
 */
import type { SchemaField } from '../contract'

/** A cell as read from a workbook: already unwrapped from rich text, formulas and links. */
export type CellValue = string | number | boolean | Date | null

export type WireValue =
  | string
  | number
  | boolean
  | { url: string }
  | { text: string }
  | { inputAssetId: string }
  | { localPath: string }
  | WireValue[]

export type Coerced = { ok: true; value: WireValue | undefined } | { ok: false; problem: string }

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/
const SLASH_DATE = /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/
/** "24.12.2026": the day first, as every country that writes dots does. */
const DOTTED_DATE = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/
/** "24/12/2026" (most of Europe) or "12/24/2026" (the United States): the whole column tells. */
const YEAR_LAST_DATE = /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$/
// With the words Excel writes for TRUE and FALSE in German, French, Spanish, Italian and Dutch.
const TRUE_WORDS = new Set(
  ['true', 'yes', 'y', '1', 'ja', 'oui', 'si', 'sí', 'x', '✓'].concat([
    'wahr',
    'vrai',
    'verdadero',
    'vero',
    'waar',
  ]),
)
const FALSE_WORDS = new Set(
  ['false', 'no', 'n', '0', 'nein', 'non'].concat(['falsch', 'faux', 'falso', 'onwaar']),
)
/** "1.299,00", "-12.345.678,5": dots between thousands, a decimal comma. */
const DOTTED_THOUSANDS = /^[+-]?\d{1,3}(\.\d{3})+(,\d+)?$/
/** Excel's day 0 for serial dates (1899-12-30, which absorbs the 1900 leap-year bug). */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30)

/** Text as a user would read it in the cell, for messages (shortened). */
export function shown(value: CellValue): string {
  const text = value instanceof Date ? value.toISOString().slice(0, 10) : String(value)
  return text.length > 40 ? `${text.slice(0, 37)}...` : text
}

export function isBlank(value: CellValue | undefined): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '')
}

/** A number as plain digits (never "1e+21"). */
function numberText(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) >= 1e21) return BigInt(n).toString()
  return String(n)
}

function cellText(value: CellValue): string {
  if (value instanceof Date) return value.toISOString().slice(0, 10)
  if (typeof value === 'number') return numberText(value)
  return String(value)
}

function isoDate(year: number, month: number, day: number): string | null {
  const d = new Date(Date.UTC(year, month - 1, day))
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day)
    return null
  return d.toISOString().slice(0, 10)
}

const DAY_MS = 86_400_000
const MONTHS =
  'January February March April May June July August September October November December'.split(' ')
const pad = (n: number) => (n < 10 ? `0${n}` : String(n))

/**
 * The UTC day of a time as YYYY-MM-DD, by arithmetic on the day number (the civil calendar
 * algorithm of H. Hinnant): a date column of a million rows makes no date string to cut.
 */
function dayOf(ms: number): string {
  const days = Math.floor(ms / DAY_MS) + 719_468
  const era = Math.floor(days / 146_097)
  const dayOfEra = days - era * 146_097
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  )
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const mp = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1
  const month = mp < 10 ? mp + 3 : mp - 9
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  if (year < 1000 || year > 9999) return new Date(ms).toISOString().slice(0, 10)
  return `${year}-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day}`
}

/** Which comes first in a date like 03/04/2026, when the column has told. */
export type DateOrder = 'day-first' | 'month-first'

/** A date written with the year last ("24/12/2026"): its first two numbers and its year. */
export function yearLastDate(text: string): { first: number; second: number; year: number } | null {
  const match = YEAR_LAST_DATE.exec(text.trim())
  return match
    ? { first: Number(match[1]), second: Number(match[2]), year: Number(match[3]) }
    : null
}

/**
 * The order a year-last date shows by itself (a number above 12 can only be the day), or null
 * when both could be the month.
 */
export function orderShown(date: { first: number; second: number }): DateOrder | null {
  if (date.first > 12 && date.second <= 12) return 'day-first'
  if (date.second > 12 && date.first <= 12) return 'month-first'
  return null
}

function yearLastIso(text: string, order: DateOrder | undefined): string | null {
  const date = yearLastDate(text)
  if (!date) return null
  const by = orderShown(date) ?? (date.first === date.second ? 'day-first' : order)
  if (!by) return null
  return by === 'day-first'
    ? isoDate(date.year, date.second, date.first)
    : isoDate(date.year, date.first, date.second)
}

/**
 * A date cell (Date, Excel serial number or text) as YYYY-MM-DD, or null. A date like
 * 03/04/2026 is read in `order` (the column's); without one, it is no date.
 */
export function toIsoDate(value: CellValue, order?: DateOrder): string | null {
  if (value instanceof Date) {
    const ms = value.getTime()
    return Number.isNaN(ms) ? null : dayOf(ms)
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 1 || value > 2_958_465) return null
    return dayOf(EXCEL_EPOCH_MS + Math.floor(value) * DAY_MS)
  }
  if (typeof value !== 'string') return null
  const text = value.trim()
  const iso = ISO_DATE.exec(text)
  if (iso) return isoDate(Number(iso[1]), Number(iso[2]), Number(iso[3]))
  const slash = SLASH_DATE.exec(text)
  if (slash) return isoDate(Number(slash[1]), Number(slash[2]), Number(slash[3]))
  const dotted = DOTTED_DATE.exec(text)
  if (dotted) return isoDate(Number(dotted[3]), Number(dotted[2]), Number(dotted[1]))
  if (YEAR_LAST_DATE.test(text)) return yearLastIso(text, order)
  // Written-out dates ("5 March 2026", "March 5, 2026"); never bare numbers like 03/05.
  if (/[a-z]/i.test(text) && /\d{4}/.test(text)) {
    const parsed = Date.parse(`${text} UTC`)
    if (!Number.isNaN(parsed)) return new Date(parsed).toISOString().slice(0, 10)
  }
  return null
}

const HTTP_PREFIX = /^https?:/i
/**
 * A web address of the usual shape, which the URL parser always accepts: host labels of
 * letters, digits and hyphens whose last one starts with a letter (so it is never read as an
 * IPv4 address), no "xn--" label (the parser checks punycode), a port of at most 4 digits, then
 * visible ASCII only (a path, query or fragment never fails to parse). Anything else goes to
 * the parser.
 */
const PLAIN_HTTP_URL =
  /^https?:\/\/(?![^/?#]*xn--)(?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*(?::\d{1,4})?(?:[/?#][!-~]*)?$/i

function isHttpUrl(text: string): boolean {
  // The usual cases answered without the parser (a column of links is a million of them).
  if (PLAIN_HTTP_URL.test(text)) return true
  if (HTTP_PREFIX.test(text) && typeof URL.canParse === 'function') return URL.canParse(text)
  try {
    const url = new URL(text)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

const choicesOf = new WeakMap<SchemaField, Map<string, string>>()

/** An enum field's choices by their lower-case text (the first of equal ones wins), made once. */
function enumChoices(field: SchemaField): Map<string, string> {
  let choices = choicesOf.get(field)
  if (!choices) {
    choices = new Map()
    for (const v of field.enumValues)
      if (!choices.has(v.toLowerCase())) choices.set(v.toLowerCase(), v)
    choicesOf.set(field, choices)
  }
  return choices
}

/** The cell as a problem quotes it (made only when there is a problem: this runs per cell). */
function quote(value: CellValue): string {
  return `'${shown(value)}'`
}

/**
 * A cell that does not fit its field, as `checkCell` answers it. A good cell is answered with
 * its value alone, so that checking a million cells makes no result object per cell.
 */
export class CellProblem {
  constructor(readonly problem: string) {}
}

const REQUIRED = new CellProblem('is required but empty')

/** A date cell: YYYY-MM-DD, or the problem (a date that could be read two ways says so). */
function checkDate(value: CellValue, order: DateOrder | undefined): string | CellProblem {
  const iso = toIsoDate(value, order)
  if (iso) return iso
  const date = typeof value === 'string' ? yearLastDate(value) : null
  if (date && !orderShown(date) && isoDate(date.year, date.first, date.second))
    return new CellProblem(
      `${quote(value)} could be ${date.first} ${MONTHS[date.second - 1]} or ${MONTHS[date.first - 1]} ${date.second}, and no date in the column tells which comes first (write it as ${date.year}-${pad(date.second)}-${pad(date.first)} if the day comes first)`,
    )
  return new CellProblem(`${quote(value)} is not a date (write it as 2026-03-05)`)
}

/** One single value of a field (not a list): the value sent, or the problem. */
function checkOne(
  field: SchemaField,
  value: CellValue,
  order: DateOrder | undefined,
): WireValue | CellProblem {
  switch (field.type) {
    case 'integer': {
      if (typeof value === 'number') {
        return Number.isInteger(value)
          ? value
          : new CellProblem(`${quote(value)} is not a whole number`)
      }
      const text = cellText(value)
        .trim()
        .replace(/[\s_']/g, '')
      if (!/^[+-]?\d+$/.test(text)) return new CellProblem(`${quote(value)} is not a whole number`)
      const n = Number(text)
      if (!Number.isSafeInteger(n))
        return new CellProblem(`${quote(value)} is too large to be sent as a whole number`)
      return n
    }
    case 'number': {
      if (typeof value === 'number')
        return Number.isFinite(value) ? value : new CellProblem(`${quote(value)} is not a number`)
      let text = cellText(value)
        .trim()
        .replace(/[\s_']/g, '')
      // "3,5" is a decimal comma; "1,234.5" has a thousands comma; "1.299,00" both the other
      // way round ("1 299,00", with any kind of space, lost its spaces above).
      if (/^[+-]?\d+,\d+$/.test(text)) text = text.replace(',', '.')
      else if (DOTTED_THOUSANDS.test(text)) text = text.replace(/\./g, '').replace(',', '.')
      else if (/^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(text)) text = text.replace(/,/g, '')
      const n = Number(text)
      if (text === '' || !Number.isFinite(n))
        return new CellProblem(`${quote(value)} is not a number`)
      return n
    }
    case 'boolean': {
      if (typeof value === 'boolean') return value
      const text = cellText(value).trim().toLowerCase()
      if (TRUE_WORDS.has(text)) return true
      if (FALSE_WORDS.has(text)) return false
      return new CellProblem(`${quote(value)} is not yes or no`)
    }
    case 'date':
      return checkDate(value, order)
    case 'enum': {
      const text = cellText(value).trim()
      const match = enumChoices(field).get(text.toLowerCase())
      if (match !== undefined) return match
      const choices = field.enumValues.slice(0, 8).join(', ')
      return new CellProblem(
        `${quote(value)} is not one of the choices (${choices}${field.enumValues.length > 8 ? ', ...' : ''})`,
      )
    }
    case 'email': {
      const text = cellText(value).trim()
      return EMAIL.test(text) ? text : new CellProblem(`${quote(value)} is not an email address`)
    }
    case 'url': {
      const text = cellText(value).trim()
      return isHttpUrl(text)
        ? text
        : new CellProblem(`${quote(value)} is not a web address (it must start with https://)`)
    }
    case 'file':
      return checkFile(field, cellText(value).trim(), value)
    case 'string':
    case 'text':
    default:
      // Unknown types are sent as text; the service decides.
      return cellText(value)
  }
}

function checkFile(field: SchemaField, text: string, value: CellValue): WireValue | CellProblem {
  const kinds = field.acceptedInputKinds.length ? field.acceptedInputKinds : ['asset']
  if (isHttpUrl(text)) {
    if (kinds.includes('url')) return { url: text }
    return new CellProblem(
      `${quote(value)} is a web address, but this field takes a file from your computer`,
    )
  }
  if (kinds.includes('asset') && looksLikePath(text)) return { localPath: text }
  if (kinds.includes('text')) return { text }
  if (kinds.includes('asset')) return { localPath: text }
  return new CellProblem(
    `${quote(value)} is not a web address (this field takes a link starting with https://)`,
  )
}

function looksLikePath(text: string): boolean {
  return /[\\/]/.test(text) || /\.[A-Za-z0-9]{1,8}$/.test(text)
}

/** Splits a multiValue cell on ';' or line breaks. */
export function splitValues(value: CellValue): CellValue[] {
  if (typeof value !== 'string') return [value]
  return value
    .split(/;|\r?\n/)
    .map((part) => part.trim())
    .filter((part) => part !== '')
}

/**
 * A whole cell: required check, multiValue splitting and coercion. Answers the value sent
 * (undefined: blank) or a CellProblem; `coerceCell` is the same as a result object.
 */
export function checkCell(
  field: SchemaField,
  value: CellValue,
  /** The column's order for dates like 03/04/2026, once it is known (date-order.ts). */
  dateOrder?: DateOrder,
): WireValue | undefined | CellProblem {
  if (isBlank(value)) return field.required ? REQUIRED : undefined
  if (!field.multiValue) return checkOne(field, value, dateOrder)
  const out: WireValue[] = []
  for (const part of splitValues(value)) {
    const one = checkOne(field, part, dateOrder)
    if (one instanceof CellProblem) return one
    out.push(one)
  }
  if (out.length === 0 && field.required) return REQUIRED
  return out
}

function coerced(result: WireValue | undefined | CellProblem): Coerced {
  return result instanceof CellProblem
    ? { ok: false, problem: result.problem }
    : { ok: true, value: result }
}

/** A whole cell: required check, multiValue splitting and coercion. undefined = blank. */
export function coerceCell(field: SchemaField, value: CellValue): Coerced {
  return coerced(checkCell(field, value))
}

/** "Row 14, Quantity: 'ten' is not a whole number". */
export function cellMessage(rowNumber: number, field: SchemaField, problem: string): string {
  return `Row ${rowNumber}, ${field.label || field.key}: ${problem}`
}

/** Normalises a header or key for matching: case, spaces, the required marker. */
export function headerKey(text: string): string {
  return text
    .replace(/\s*\*\s*$/, '')
    .replace(/\s*\(required\)\s*$/i, '')
    .toLowerCase()
    .replace(/[\s_-]+/g, '')
}
