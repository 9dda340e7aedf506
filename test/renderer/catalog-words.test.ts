// The words of one entry of what can be run: last run, rows, a row's cost, where it was found,
// and where a listing's offered version comes from.
import { describe, expect, it } from 'vitest'
import type { CatalogEntry } from '../../src/shared/bridge'
import {
  entryFacts,
  offeredVersionWords,
  catalogVersionWords,
} from '../../src/renderer/prepare/catalog-words'

const NOW = 1_800_000_000_000
const entry = (over: Partial<CatalogEntry>): CatalogEntry => ({
  kind: 'listing',
  id: 'ad-copy',
  name: 'Ad copy',
  description: '',
  versions: [],
  source: 'runs',
  sources: ['runs'],
  rowsRun: 0,
  ...over,
})

describe('catalog words', () => {
  it('says when, how many rows and what a row cost', () => {
    const ran = entry({ lastUsedAtUnix: NOW / 1000 - 7200, rowsRun: 12, lastCostPerRowT: 2.5 })
    expect(entryFacts(ran, 'credits', NOW)).toBe(
      'last run 2 hours ago · 12 rows run · 2.5 credits a row last time · from your runs',
    )
    expect(entryFacts(entry({ rowsRun: 1, lastCostPerRowT: 4 }), 'tokens', NOW)).toBe(
      'not run yet · 1 row run · 4 tokens a row last time · from your runs',
    )
    expect(entryFacts(entry({ source: 'own-listing' }), 'credits', NOW)).toBe(
      'not run yet · your listing',
    )
  })

  it('says where a version comes from', () => {
    expect(
      catalogVersionWords({ versionId: 'v2', source: 'runs', lastUsedAtUnix: NOW / 1000 }, NOW),
    ).toBe('v2 — you ran it just now')
    expect(catalogVersionWords({ versionId: 'v3', source: 'own-listing' }, NOW)).toBe(
      'v3 — the one your listing shows',
    )
    expect(
      offeredVersionWords(entry({ versions: [{ versionId: 'v3', source: 'own-listing' }] })),
    ).toBe('Version “v3”: the one your listing shows.')
    expect(offeredVersionWords(entry({}))).toBe('')
  })
})
