/**
 * The words of one entry of what can be run: when it was last run, how many rows, what a row
 * cost then, where it was found, and a listing version's origin. Plain functions, tested alone.
 */
import type { CatalogEntry, CatalogSource, CatalogVersion } from '../../shared/bridge'
import { formatAmount } from '../../shared/format'
import { describeAge } from '../../shared/format/time'

const SOURCE_WORDS: Record<CatalogSource, string> = {
  runs: 'from your runs',
  'this-computer': 'sent from this computer',
  'own-listing': 'your listing',
  sandbox: 'the Sandbox’s own',
  'saved-schema': 'saved on this computer',
}

/** "last run 2 hours ago · 12 rows run · 4 credits a row last time · from your runs" */
export function entryFacts(entry: CatalogEntry, unitLabel: string, nowMs = Date.now()): string {
  const parts = [
    entry.lastUsedAtUnix
      ? `last run ${describeAge(entry.lastUsedAtUnix * 1000, nowMs)}`
      : 'not run yet',
  ]
  if (entry.rowsRun > 0) parts.push(`${entry.rowsRun} row${entry.rowsRun === 1 ? '' : 's'} run`)
  if (entry.lastCostPerRowT !== undefined) {
    parts.push(`${formatAmount(entry.lastCostPerRowT, unitLabel)} a row last time`)
  }
  parts.push(SOURCE_WORDS[entry.source])
  return parts.join(' · ')
}

/** "v2 — you ran it 2 hours ago", "v3 — the one your listing shows" */
export function catalogVersionWords(version: CatalogVersion, nowMs = Date.now()): string {
  if (version.lastUsedAtUnix) {
    return `${version.versionId} — you ran it ${describeAge(version.lastUsedAtUnix * 1000, nowMs)}`
  }
  return `${version.versionId} — the one your listing shows`
}

/** Where the version offered for a pasted listing comes from. */
export function offeredVersionWords(entry: CatalogEntry): string {
  const offered = entry.versions[0]
  if (!offered) return ''
  return offered.lastUsedAtUnix
    ? `Version “${offered.versionId}”: the latest one you ran.`
    : `Version “${offered.versionId}”: the one your listing shows.`
}
