// "Paste a link or id": the ids found in a pasted link or id, on a table of what users paste.
// Nothing in the text is trusted: only id-shaped pieces are kept, and what is missing is said.
import { describe, expect, it } from 'vitest'
import { readRunLink, type RunLinkKind } from '../../src/shared/run-link'

type Row = [
  text: string,
  assume: RunLinkKind,
  kind: RunLinkKind | null,
  ids: { templateId?: string; listingId?: string; versionId?: string },
  missing: string[],
]

// prettier-ignore
const rows: Row[] = [
  // Paths
  ['https://skills.example.com/listings/lst_42/versions/ver_7', 'template', 'listing', { listingId: 'lst_42', versionId: 'ver_7' }, []],
  ['https://skills.example.com/market/listings/press-release-polisher', 'template', 'listing', { listingId: 'press-release-polisher' }, ['the listing’s version']],
  ['https://skills.example.com/svc/v1/marketListings/lst_42:execute', 'listing', 'listing', { listingId: 'lst_42' }, ['the listing’s version']],
  ['https://skills.example.com/templates/row-echo', 'listing', 'template', { templateId: 'row-echo' }, []],
  ['https://skills.example.com/svc/v1/officialTemplates/invoice%2Dx/schema', 'listing', 'template', { templateId: 'invoice-x' }, []],
  ['skills.example.com/listings/lst_42/versions/ver_7', 'template', 'listing', { listingId: 'lst_42', versionId: 'ver_7' }, []],
  ['https://skills.example.com/app#/listings/lst_42?version=ver_9', 'template', 'listing', { listingId: 'lst_42', versionId: 'ver_9' }, []],
  // Query
  ['https://skills.example.com/run?listing=lst_42&version=ver_7', 'template', 'listing', { listingId: 'lst_42', versionId: 'ver_7' }, []],
  ['https://skills.example.com/run?listingId=lst_42&listingVersionId=ver_7&utm_source=mail', 'template', 'listing', { listingId: 'lst_42', versionId: 'ver_7' }, []],
  ['https://skills.example.com/?template=row-echo', 'listing', 'template', { templateId: 'row-echo' }, []],
  // Bare ids
  ['  lst_42  ', 'listing', 'listing', { listingId: 'lst_42' }, ['the listing’s version']],
  ['row-echo', 'template', 'template', { templateId: 'row-echo' }, []],
  ['lst_42/ver_7', 'listing', 'listing', { listingId: 'lst_42', versionId: 'ver_7' }, []],
]

const junk: [string, RunLinkKind][] = [
  ['', 'template'],
  ['hello world', 'template'],
  ['javascript:alert(1)', 'listing'],
  ['https://skills.example.com/about', 'listing'],
  ['https://skills.example.com/listings/<script>', 'listing'],
  ['https://skills.example.com/listings/%E0%A4%A', 'listing'],
  ['ftp://skills.example.com/listings/lst_42', 'listing'],
  ['x'.repeat(3000), 'template'],
  ['https://skills.example.com/versions/ver_7', 'listing'],
]

describe('reading a pasted link or id', () => {
  it.each(rows)('%s (as a %s)', (text, assume, kind, ids, missing) => {
    const read = readRunLink(text, assume)
    expect(read.kind).toBe(kind)
    expect(read.templateId).toBe(ids.templateId ?? null)
    expect(read.listingId).toBe(ids.listingId ?? null)
    expect(read.versionId).toBe(ids.versionId ?? null)
    expect(read.missing).toEqual(missing)
    expect(read.problem).toBeNull()
  })

  it.each(junk)('finds nothing in %#', (text, assume) => {
    const read = readRunLink(text, assume)
    expect(read.kind).toBeNull()
    expect(read.templateId ?? read.listingId).toBeNull()
    expect(read.problem).toMatch(/\w/)
  })

  it('says the listing is missing when only a version is found', () => {
    expect(readRunLink('https://s.example/versions/ver_7', 'listing').problem).toBe(
      'Only a version (“ver_7”) was found: the listing’s id is missing.',
    )
  })
})
