/**
 * "Paste a link or id": what a pasted text names to run. A link copied from the service's
 * website carries the ids in its path (…/listings/ID/versions/VID, …/templates/ID) or its query
 * (?listing=ID&version=VID); a bare id is taken as the kind the user is choosing. The text is
 * never trusted: only pieces shaped like an id are kept, nothing is fetched, and what is still
 * missing is said. Pure, so the window and the tests call it alike.
 */

export type RunLinkKind = 'template' | 'listing'

export interface RunLinkReading {
  kind: RunLinkKind | null
  templateId: string | null
  listingId: string | null
  versionId: string | null
  /** What is still needed before it can be used, in words (e.g. "the listing’s version"). */
  missing: string[]
  /** Why nothing usable was found; null when something was. */
  problem: string | null
}

/** An id as services write them: letters, digits and . _ ~ -, at most 128 characters. */
const ID = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$/
const MAX_TEXT = 2048

type Part = 'templateId' | 'listingId' | 'versionId'

/** The words before an id in a link's path, and the query names that carry one. */
const PATH_WORDS: Record<string, Part> = {
  template: 'templateId',
  templates: 'templateId',
  officialtemplates: 'templateId',
  'official-templates': 'templateId',
  listing: 'listingId',
  listings: 'listingId',
  marketlistings: 'listingId',
  'market-listings': 'listingId',
  skills: 'listingId',
  version: 'versionId',
  versions: 'versionId',
  listingversions: 'versionId',
}
const QUERY_NAMES: Record<string, Part> = {
  template: 'templateId',
  templateid: 'templateId',
  template_id: 'templateId',
  listing: 'listingId',
  listingid: 'listingId',
  listing_id: 'listingId',
  version: 'versionId',
  versionid: 'versionId',
  version_id: 'versionId',
  listingversionid: 'versionId',
  listing_version_id: 'versionId',
}

/** An id from a piece of a link, without a custom verb (`ID:execute`); null when not one. */
function idFrom(piece: string): string | null {
  let text = piece
  try {
    text = decodeURIComponent(piece)
  } catch {
    return null
  }
  const id = text.split(':')[0]!.trim()
  return ID.test(id) ? id : null
}

/** The link's address, or null when the text is not one (a scheme-less host is allowed). */
function asUrl(text: string): URL | null {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text)
    ? text
    : /^[^\s/]+\.[^\s/]+\//.test(text)
      ? `https://${text}`
      : null
  if (!withScheme) return null
  try {
    const url = new URL(withScheme)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null
  } catch {
    return null
  }
}

function idsInUrl(url: URL): Partial<Record<Part, string>> {
  const found: Partial<Record<Part, string>> = {}
  // A page of a single-page site may keep its path after '#'.
  const hash = url.hash.replace(/^#!?/, '')
  const [hashPath = '', hashQuery = ''] = hash.split('?')
  const segments = [...url.pathname.split('/'), ...hashPath.split('/')].filter(Boolean)
  segments.forEach((segment, i) => {
    const part = PATH_WORDS[segment.toLowerCase()]
    const next = segments[i + 1]
    if (!part || next === undefined || found[part]) return
    const id = idFrom(next)
    if (id && !PATH_WORDS[id.toLowerCase()]) found[part] = id
  })
  for (const params of [url.searchParams, new URLSearchParams(hashQuery)]) {
    params.forEach((value, name) => {
      const part = QUERY_NAMES[name.toLowerCase()]
      if (!part || found[part]) return
      const id = idFrom(value)
      if (id) found[part] = id
    })
  }
  return found
}

function reading(ids: Partial<Record<Part, string>>): RunLinkReading {
  const base = {
    templateId: ids.templateId ?? null,
    listingId: ids.listingId ?? null,
    versionId: ids.versionId ?? null,
  }
  if (ids.listingId) {
    return {
      ...base,
      kind: 'listing',
      missing: ids.versionId ? [] : ['the listing’s version'],
      problem: null,
    }
  }
  if (ids.templateId) return { ...base, kind: 'template', missing: [], problem: null }
  return {
    ...base,
    kind: null,
    missing: ['a listing or template id'],
    problem: ids.versionId
      ? `Only a version (“${ids.versionId}”) was found: the listing’s id is missing.`
      : 'No template or listing id was found in that link.',
  }
}

/**
 * Reads a pasted link or id. A bare id is taken as `assume` (the kind being chosen); a bare
 * `LISTING/VERSION` pair as a listing with its version.
 */
export function readRunLink(text: string, assume: RunLinkKind): RunLinkReading {
  const trimmed = text.trim()
  const nothing = (problem: string): RunLinkReading => ({
    kind: null,
    templateId: null,
    listingId: null,
    versionId: null,
    missing: ['a listing or template id'],
    problem,
  })
  if (!trimmed) return nothing('Paste a link or an id.')
  if (trimmed.length > MAX_TEXT) return nothing('That is too long to be a link or an id.')
  const url = asUrl(trimmed)
  if (url) return reading(idsInUrl(url))
  if (ID.test(trimmed)) {
    return reading(assume === 'listing' ? { listingId: trimmed } : { templateId: trimmed })
  }
  const pair = trimmed.split('/')
  if (assume === 'listing' && pair.length === 2 && pair.every((p) => ID.test(p))) {
    return reading({ listingId: pair[0]!, versionId: pair[1]! })
  }
  return nothing('That is neither a link nor an id: an id has no spaces or special characters.')
}
