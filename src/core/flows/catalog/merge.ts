/**
 * The catalog put together from what each place tells (pure, so it is tested without a
 * service): one entry per template or listing, with when it was last run, what a row cost then,
 * how many rows were run, and every version of a listing that is known.
 */
import { amountT, shareT, type AmountT } from '../../../shared/format/amounts'
import type { CatalogEntry, CatalogSource, TemplateChoice } from '../../../shared/bridge'
import type { CreatorListing, RunSummary } from '../../../shared/contract'

/** What this computer sent and the service accepted (the submissions journal). */
export interface UsedHere {
  targetKind: 'template' | 'listing'
  targetId: string
  listingVersionId: string
  runId: string
  rowCount: number
  updatedAtMs: number
}

export interface CatalogParts {
  /** The Sandbox's own templates and those whose schema is saved here. */
  templates: TemplateChoice[]
  /** The user's runs, as the service lists them. */
  runs: RunSummary[]
  /** The creator's own listings. */
  ownListings: CreatorListing[]
  usedHere: UsedHere[]
}

const SOURCE_ORDER: CatalogSource[] = [
  'runs',
  'this-computer',
  'own-listing',
  'sandbox',
  'saved-schema',
]

type Draft = Omit<CatalogEntry, 'source'> & { costAtUnix: number }

/** The cost of one row of a run: what the buyer paid (or was quoted), over its rows. */
function costPerRow(run: RunSummary): AmountT | undefined {
  if (run.totalTasks <= 0) return undefined
  const m = run.market
  const total = m
    ? m.finalBuyerPayableT || m.estimatedBuyerPayableT || run.actualCostT || run.estimatedCostT
    : run.actualCostT || run.estimatedCostT
  return shareT(amountT(total), 1, run.totalTasks, 'exact')
}

class Drafts {
  private readonly byKey = new Map<string, Draft>()

  entry(kind: CatalogEntry['kind'], id: string, name: string, source: CatalogSource): Draft {
    const key = `${kind}\u0000${id}`
    let draft = this.byKey.get(key)
    if (!draft) {
      draft = {
        kind,
        id,
        name: name || id,
        description: '',
        versions: [],
        sources: [],
        rowsRun: 0,
        costAtUnix: -1,
      }
      this.byKey.set(key, draft)
    }
    if (draft.name === draft.id && name) draft.name = name
    if (!draft.sources.includes(source)) draft.sources.push(source)
    return draft
  }

  all(): Draft[] {
    return [...this.byKey.values()]
  }
}

function used(draft: Draft, atUnix: number, versionId: string, source: CatalogSource) {
  if (atUnix > (draft.lastUsedAtUnix ?? -1)) draft.lastUsedAtUnix = atUnix
  if (draft.kind !== 'listing' || !versionId) return
  const known = draft.versions.find((v) => v.versionId === versionId)
  if (!known) draft.versions.push({ versionId, source, lastUsedAtUnix: atUnix })
  else if (atUnix > (known.lastUsedAtUnix ?? -1)) known.lastUsedAtUnix = atUnix
}

function addRuns(drafts: Drafts, runs: RunSummary[]) {
  for (const run of runs) {
    const market = run.market
    const draft = market
      ? drafts.entry('listing', market.listingId, market.skillName || run.templateName, 'runs')
      : run.templateKey
        ? drafts.entry('template', run.templateKey, run.templateName, 'runs')
        : null
    if (!draft) continue
    used(draft, run.createdAtUnix, market?.listingVersionId ?? '', 'runs')
    draft.rowsRun += run.totalTasks
    const cost = costPerRow(run)
    if (cost !== undefined && run.createdAtUnix > draft.costAtUnix) {
      draft.lastCostPerRowT = cost
      draft.costAtUnix = run.createdAtUnix
    }
  }
}

function addUsedHere(drafts: Drafts, usedHere: UsedHere[], listedRuns: Set<string>) {
  for (const sent of usedHere) {
    const draft = drafts.entry(sent.targetKind, sent.targetId, '', 'this-computer')
    used(draft, Math.floor(sent.updatedAtMs / 1000), sent.listingVersionId, 'this-computer')
    // A run the service listed is counted once, from the service's own numbers.
    if (!listedRuns.has(sent.runId)) draft.rowsRun += sent.rowCount
  }
}

/** Why a listing cannot be run now, in a buyer's words, or null when it can (DESIGN.md). */
function whyNotRunnable(l: CreatorListing): string | null {
  if (l.status === 'pending_review') return 'Waiting for its review'
  if (l.status === 'rejected') return 'Turned down at its review'
  if (l.status !== 'published' || l.saleStatus === 'not_on_sale') return 'No longer sold'
  if (l.executionAvailabilityStatus === 'unavailable') return 'Not available to run now'
  return null
}

const runnable = (l: CreatorListing) => whyNotRunnable(l) === null

function addOwnListings(drafts: Drafts, listings: CreatorListing[]) {
  // The ones that can be run now come before drafts and retired ones.
  const ordered = [...listings].sort((a, b) => Number(runnable(b)) - Number(runnable(a)))
  for (const listing of ordered) {
    const draft = drafts.entry('listing', listing.id, listing.displayName, 'own-listing')
    draft.description ||= listing.description
    const why = whyNotRunnable(listing)
    if (why) draft.notRunnable = why
    const versionId = listing.publishedVersionId || listing.listingVersionId
    if (versionId && !draft.versions.some((v) => v.versionId === versionId)) {
      draft.versions.push({ versionId, source: 'own-listing' })
    }
  }
}

function finish(draft: Draft, order: number): CatalogEntry & { order: number } {
  const { costAtUnix: _cost, ...rest } = draft
  const versions = [...draft.versions].sort(
    (a, b) => (b.lastUsedAtUnix ?? -1) - (a.lastUsedAtUnix ?? -1),
  )
  const sources = SOURCE_ORDER.filter((s) => draft.sources.includes(s))
  return {
    ...rest,
    versions,
    ...(versions[0] ? { versionId: versions[0].versionId } : {}),
    sources,
    source: sources[0]!,
    order,
  }
}

/** The catalog: the most recently run first, then the rest in the order they were found. */
export function buildCatalog(parts: CatalogParts): CatalogEntry[] {
  const drafts = new Drafts()
  addRuns(drafts, parts.runs)
  addUsedHere(drafts, parts.usedHere, new Set(parts.runs.map((r) => r.runId)))
  addOwnListings(drafts, parts.ownListings)
  for (const t of parts.templates) {
    const draft = drafts.entry(
      'template',
      t.templateId,
      t.name,
      t.source === 'builtin' ? 'sandbox' : 'saved-schema',
    )
    draft.description ||= t.description
  }
  return drafts
    .all()
    .map(finish)
    .sort((a, b) => (b.lastUsedAtUnix ?? -1) - (a.lastUsedAtUnix ?? -1) || a.order - b.order)
    .map(({ order: _order, ...entry }) => entry)
}
