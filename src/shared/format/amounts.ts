/**
 * Counts, amounts and estimates in words, said the same way in the app and in the terminal:
 * "1 row", "2 rows", "1 credit", "about 3 credits: 3 rows at 1 credit per row". Every screen and
 * command that names a cost goes through `formatAmount`, so none says "1 credits".
 *
 * Amounts: a name ending in `T` (`estimatedCostT`, `taskFixedFeeT`, `costPerRowT`) is an amount as
 * the service counts it, an integer in the environment's smallest unit. It is shown with the
 * environment's unit label (default "credits") and never converted.
 */

declare const unitT: unique symbol
/**
 * An amount in the service's smallest unit, as the engine holds it: a number that a count of rows
 * or a share of one cannot stand in for. Amounts enter as `amountT` (an integer from the service,
 * the journal or the buyer's cap) and change only through the helpers below, so a sum of costs is
 * never a sum of a cost and a row count. Screens and answers take plain numbers: an `AmountT` is one.
 */
export type AmountT = number & { readonly [unitT]: 'T' }

/** A number read as an amount in the service's unit (null stays null: not known). */
export function amountT(value: number): AmountT
export function amountT(value: number | null): AmountT | null
export function amountT(value: number | null): AmountT | null {
  return value as AmountT | null
}

/** The sum of amounts (a batch's parts, a month's runs). */
export function sumT(values: Iterable<number>): AmountT {
  let total = 0
  for (const v of values) total += v
  return total as AmountT
}

/** A per-row amount times a number of rows (a fee for the rows sent). */
export const timesT = (perRow: AmountT, rows: number) => (perRow * rows) as AmountT

/** `rows` of `ofRows` rows' share of `whole`; whole units unless `exact` (a cost per row). */
export function shareT(
  whole: AmountT,
  rows: number,
  ofRows: number,
  round: 'up' | 'nearest' | 'exact',
): AmountT {
  const share = (whole * rows) / ofRows
  return (
    round === 'up' ? Math.ceil(share) : round === 'nearest' ? Math.round(share) : share
  ) as AmountT
}

/** What is left of `limit` once `spent` is taken, never below nothing. */
export const leftT = (limit: AmountT, spent: AmountT) => Math.max(0, limit - spent) as AmountT

// Intl formatters are slow to make and cheap to reuse: one per locale, made on first use rather
// than when the module loads (making one loads the locale's data, a good part of a small
// command's start, and a valid workbook's check names no count).
const localeNumbers = new Map<string, Intl.NumberFormat>()
function numbersIn(locale: string | undefined): Intl.NumberFormat {
  const key = locale ?? 'en-US'
  let format = localeNumbers.get(key)
  if (!format) {
    format = new Intl.NumberFormat(key, { maximumFractionDigits: 2 })
    localeNumbers.set(key, format)
  }
  return format
}

/** "1 row", "2 rows", "1,250 rows"; `many` for a word whose plural is not word + s. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${numbersIn(undefined).format(n)} ${n === 1 ? word : many}`
}

/**
 * An amount in the environment's unit: "1 credit", "1,250 credits", "0.5 credits" (a row's share of
 * a run's cost). The default unit is said in the singular for one; a label the operator chose is
 * shown as given. `locale` formats the number for the window's language (en-US when not given).
 */
export function formatAmount(value: number, unitLabel: string, locale?: string): string {
  const unit = unitLabel || 'credits'
  if (unit === 'credits')
    return `${numbersIn(locale).format(value)} ${value === 1 ? 'credit' : 'credits'}`
  return `${numbersIn(locale).format(value)} ${unit}`
}

/** What an estimate is made of: the same fields on a plan and on its Bridge view. */
export interface EstimateFacts {
  rowCount: number
  estimateT: number | null
  estimateSource: 'fee' | 'pilot' | 'none'
  taskFixedFeeT: number | null
  learnedFrom: { runId: string; costPerRowT: number } | null
  unitLabel: string
  targetKind: 'template' | 'listing'
  /** The rows sent are a pilot: it is what will tell the cost per row. */
  isPilot?: boolean
  /** The runs the send makes: more than one when the rows go as parts (default 1). */
  runs?: number | undefined
}

/** The cost before sending: "about 12 credits: 3 rows at 4 credits per row", or unknown. */
export function estimateWords(f: EstimateFacts): string {
  const rows = plural(f.rowCount, 'row')
  if (f.estimateT === null) return 'unknown before the run'
  if (f.estimateSource === 'fee' && f.taskFixedFeeT !== null) {
    return `about ${formatAmount(f.estimateT, f.unitLabel)}: ${rows} at ${formatAmount(f.taskFixedFeeT, f.unitLabel)} per row`
  }
  if (f.estimateSource === 'pilot' && f.learnedFrom) {
    const perRow = Number(f.learnedFrom.costPerRowT.toFixed(2))
    return `about ${formatAmount(f.estimateT, f.unitLabel)}: ${rows} at ${formatAmount(perRow, f.unitLabel)} per row`
  }
  return `about ${formatAmount(f.estimateT, f.unitLabel)}`
}

/**
 * Where the estimate comes from, said plainly, with what to do when nobody knows it. The CLI
 * names the earlier run by its ID (`withRunId`); the window keeps the ID under "Details".
 */
export function estimateSourceWords(f: EstimateFacts, withRunId = true): string {
  if (f.estimateT !== null && f.estimateSource === 'fee') {
    return 'the service’s estimate (the listing’s fee per row)'
  }
  if (f.estimateT !== null && f.estimateSource === 'pilot' && f.learnedFrom) {
    return withRunId
      ? `the last run’s cost per row (run ${f.learnedFrom.runId})`
      : 'the last run’s cost per row'
  }
  const learn = f.isPilot
    ? 'this pilot will tell it.'
    : 'send a pilot of a few rows first to learn it.'
  // True whether no run ended here yet or one ended without a cost per row (every row failed, or
  // the service did not say its cost): "none has ended" was said right after a pilot ended.
  return f.targetKind === 'listing'
    ? `unknown. The service does not show this listing’s fee to your account, and no run of it here has told its cost per row yet: ${learn}`
    : `unknown. The service charges what each row actually costs and gives its estimate only once it has the rows, and no run of this template here has told its cost per row yet: ${learn}`
}

/**
 * The sentence of consent: "I agree to pay up to 12 credits for this run.", or "for these 3
 * runs" when the rows go as parts.
 */
export function agreeWords(f: EstimateFacts, capT: number | undefined): string {
  const many = (f.runs ?? 1) > 1
  const runs = many ? `these ${f.runs} runs` : 'this run'
  // A cap is checked against the estimate: without one it bounds nothing, so it is not promised.
  const limit = f.estimateT === null ? null : (capT ?? f.estimateT)
  if (limit === null) {
    return many
      ? `I agree to pay what ${runs} cost; the amount is known only once they end.`
      : `I agree to pay what ${runs} costs; the amount is known only once it ends.`
  }
  const under = f.targetKind === 'listing' ? ', under the listing’s terms' : ''
  return capT !== undefined
    ? `I agree to pay up to ${formatAmount(limit, f.unitLabel)} for ${runs}${under}.`
    : `I agree to pay about ${formatAmount(limit, f.unitLabel)} for ${runs}${under} (the actual cost is charged).`
}
