// The column mapping's proposal and header-row finding on real-looking sheets, without any file.
import { describe, expect, it } from 'vitest'
import demo from '../../src/sandbox/demo-content.json'
import { Collector } from '../../src/core/workbooks/validate/collector'
import { proposeMapping } from '../../src/core/workbooks/mapping/propose'
import { findHeaderRow } from '../../src/core/workbooks/mapping/header-row'
import { looseKey } from '../../src/core/workbooks/mapping/words'
import {
  columnMapFromJson,
  headersKey,
  parseMapText,
} from '../../src/core/workbooks/mapping/column-map'
import {
  officialTemplateSchemaSchema,
  type OfficialTemplateSchema,
} from '../../src/shared/contract'

function template(id: string): OfficialTemplateSchema {
  const found = demo.officialTemplates.find((t) => t.schema.templateId === id)
  return officialTemplateSchemaSchema.parse(found!.schema)
}
const tickets = template('support-ticket-triage')
const products = template('product-description-writer')
const echo = template('row-echo')
const digest = template('document-digest')

/** The proposal as { header: fieldKey }, the way a user reads it. */
function proposed(schema: OfficialTemplateSchema, headers: string[], rows: string[][]) {
  const p = proposeMapping(headers, rows, schema)
  return { map: Object.fromEntries(p.columns.map((c) => [c.header, c.fieldKey])), p }
}

describe('the mapping proposal', () => {
  const cases: {
    name: string
    schema: OfficialTemplateSchema
    headers: string[]
    rows: string[][]
    expected: Record<string, string | null>
    ambiguous?: boolean
  }[] = [
    {
      name: 'renamed headers (synonyms, case, punctuation)',
      schema: tickets,
      headers: ['Ticket #', 'E-mail address', 'Subject line', 'Message text', 'Date received'],
      rows: [
        ['T-1', 'ann@example.com', 'Broken', 'It broke', '2025-03-01'],
        ['T-2', 'bo@example.org', 'Late', 'It is late', '2025-03-02'],
      ],
      expected: {
        'Ticket #': 'ticketId',
        'E-mail address': 'customerEmail',
        'Subject line': 'subject',
        'Message text': 'body',
        'Date received': 'receivedOn',
      },
    },
    {
      name: 'reordered, ignoring case, spaces and the required marker',
      schema: products,
      headers: ['PRICE (EUR)', 'product_name*', 'Category', 'launch-date'],
      rows: [['24.90', 'Board', 'Kitchen', '2025-04-01']],
      expected: {
        'PRICE (EUR)': 'price',
        'product_name*': 'productName',
        Category: 'category',
        'launch-date': 'launchDate',
      },
    },
    {
      name: 'extra columns are not used; a column of web addresses finds the url field',
      schema: products,
      headers: ['Product name', 'Internal SKU', 'Link', 'Price', 'Category'],
      rows: [
        ['Board', 'SKU-1', 'https://shop.example.com/b', '24.9', 'Kitchen'],
        ['Bottle', 'SKU-2', 'https://shop.example.com/w', '12', 'Outdoor'],
      ],
      expected: {
        'Product name': 'productName',
        'Internal SKU': null,
        Link: 'productPage',
        Price: 'price',
        Category: 'category',
      },
    },
    {
      name: 'values alone: a column of e-mail addresses under an unhelpful header',
      schema: tickets,
      headers: ['Ticket ID', 'Contact', 'Message'],
      rows: [
        ['T-1', 'ann@example.com', 'Hi'],
        ['T-2', 'bo@example.org', 'Hello'],
        ['T-3', 'cy@example.net', 'Hey'],
      ],
      expected: { 'Ticket ID': 'ticketId', Contact: 'customerEmail', Message: 'body' },
    },
    {
      name: 'file paths under "Attachment path" go to the file field',
      schema: digest,
      headers: ['Report file', 'Report title'],
      rows: [
        ['docs/q1.pdf', 'Q1'],
        ['docs/q2.pdf', 'Q2'],
      ],
      expected: { 'Report file': 'document', 'Report title': 'title' },
    },
    {
      name: 'two columns that could fit one field: one is chosen and the user must confirm',
      schema: echo,
      headers: ['Message text', 'Message body', 'Seq'],
      rows: [['hello', 'hi', '1']],
      expected: { 'Message text': 'message', 'Message body': 'details', Seq: 'sequence' },
      ambiguous: true,
    },
  ]
  for (const c of cases)
    it(c.name, () => {
      const { map, p } = proposed(c.schema, c.headers, c.rows)
      expect(map).toEqual(c.expected)
      if (c.ambiguous !== undefined) expect(p.ambiguous).toBe(c.ambiguous)
    })

  it('the template’s own headers are certain, with the first three values shown', () => {
    const { p } = proposed(
      echo,
      ['Message', 'Sequence number'],
      [
        ['a', '1'],
        ['b', '2'],
        ['c', '3'],
        ['d', '4'],
      ],
    )
    expect(p.ambiguous).toBe(false)
    expect(p.columns[0]).toMatchObject({
      fieldKey: 'message',
      confidence: 1,
      samples: ['a', 'b', 'c'],
    })
  })

  it('a required field no column fits is named', () => {
    const { p } = proposed(tickets, ['Ticket ID', 'Internal flag'], [['T-1', 'x']])
    expect(p.missingRequired).toEqual(['customerEmail', 'body'])
  })
})

describe('finding the header row', () => {
  it('passes over a title and a note above the header', () => {
    const rows = [
      ['Support tickets, March', null, null],
      ['Exported by Ann', null, null],
      ['Ticket #', 'Contact', 'Text'],
      ['T-1', 'a@b.co', 'hi'],
    ]
    expect(findHeaderRow(rows, tickets)).toBe(2)
    expect(findHeaderRow(rows, null)).toBe(2)
  })
  it('the row naming the most fields wins over a wide title block', () => {
    const rows = [
      ['Report', 'March', '2025'],
      ['Ticket ID', 'Customer email', 'Message'],
    ]
    expect(findHeaderRow(rows, tickets)).toBe(1)
  })
  it('takes a row of text over rows mostly of numbers, dates or times', () => {
    const bank = [['Umsätze'], ['Datum', 'Summe'], ['2011-09-14', '3.81', '0.7', '1']]
    expect(findHeaderRow(bank, echo)).toBe(1)
    const numbered = [
      ['Name', 'Notes'],
      ['1', '2', '3', '4'],
      ['Anna', 'Cup', '3', '4,50'],
    ]
    expect(findHeaderRow(numbered, echo)).toBe(0)
    const times = [
      ['Readings, July'],
      ['2026-07-01 10:00:00', '21,5', '48'],
      ['11:00 AM', '2', '3'],
    ]
    expect(findHeaderRow(times, echo)).toBe(0)
  })
  it('takes a row of values only when no row is mostly text', () => {
    const values = [
      ['1', '2', '3'],
      ['TRUE', 'FALSE', 'x'],
      ['4', '5', '6'],
    ]
    expect(findHeaderRow(values, echo)).toBe(0)
  })
})

describe('the collector with a mapping', () => {
  const source = { bytes: new Uint8Array(), filename: 'x.csv' }
  const feed = (c: Collector, rows: (string | null)[][]) => rows.forEach((r, i) => c.row(r, i + 1))
  const sheet = [
    ['Messages to send', null],
    [null, null],
    ['Message text', 'Seq'],
    ['hello', '1'],
    ['again', '2'],
  ]

  it('finds the header under a title, proposes, and applies a given mapping', () => {
    const proposedOnly = new Collector(echo, source, {})
    feed(proposedOnly, sheet)
    const first = proposedOnly.finish()
    expect(first.valid).toBe(false)
    expect(first.mapping).toMatchObject({ headerRow: 3, source: 'proposed', complete: false })
    expect(first.mapping?.proposal?.columns.map((c) => c.fieldKey)).toEqual(['message', 'sequence'])

    const mapped = new Collector(echo, source, {
      columnMap: { 'Message text': 'message', Seq: 'sequence' },
    })
    feed(mapped, sheet)
    const result = mapped.finish()
    expect(result.fileErrors).toEqual([])
    expect(result.rows).toEqual([
      { message: 'hello', sequence: 1 },
      { message: 'again', sequence: 2 },
    ])
    expect(result.rowNumbers).toEqual([4, 5])
    expect(result.mapping).toMatchObject({ source: 'given', complete: true })
  })

  it('uses a remembered mapping only for the same set of headers', () => {
    const remembered = {
      [headersKey(['Seq', 'Message text'])]: { 'Message text': 'message', Seq: 'sequence' },
    }
    const c = new Collector(echo, source, { rememberedMaps: remembered })
    feed(c, sheet)
    expect(c.finish().mapping).toMatchObject({ source: 'remembered', complete: true })
    const other = new Collector(echo, source, { rememberedMaps: remembered })
    feed(other, [
      ['Message text', 'Seq', 'Extra'],
      ['hi', '1', 'x'],
    ])
    expect(other.finish().mapping?.source).toBe('proposed')
  })

  it('a mapping that leaves a required field without a column says so', () => {
    const c = new Collector(echo, source, { columnMap: { 'Message text': null, Seq: 'sequence' } })
    feed(c, sheet)
    const result = c.finish()
    expect(result.fileErrors).toContain(
      'The required field “Message” has no column. Choose the column that holds it.',
    )
  })

  it('the template’s own headers stay exact: no proposal, no mapping in the way', () => {
    const c = new Collector(echo, source, {})
    feed(c, [
      ['Message', 'Sequence number'],
      ['hi', '1'],
    ])
    const result = c.finish()
    expect(result.valid).toBe(true)
    expect(result.mapping).toMatchObject({ source: 'exact', headerRow: 1 })
    expect(result.mapping?.proposal).toBeUndefined()
  })
})

describe('mapping words', () => {
  it('parses --map text and --map-file JSON', () => {
    expect(parseMapText('Message text=message, E-mail address=email,Notes=,A\\,B=-')).toEqual({
      'Message text': 'message',
      'E-mail address': 'email',
      Notes: null,
      'A,B': null,
    })
    expect(() => parseMapText('Message text')).toThrow(/has no “=”/)
    expect(columnMapFromJson({ A: 'a', B: null })).toEqual({ A: 'a', B: null })
    expect(() => columnMapFromJson(['A'])).toThrow(/JSON object/)
  })

  it('compares headers without case, spaces, punctuation or marker, in any script', () => {
    expect(looseKey('Sequence number *')).toBe('sequencenumber')
    expect(looseKey('E-mail_Address (required)')).toBe('emailaddress')
    expect(looseKey('Straße Nº 2')).toBe('straßenº2')
    expect(looseKey('Ünïcode—Títle ١٢')).toBe('ünïcodetítle١٢')
  })
})
