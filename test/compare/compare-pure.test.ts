// The pure parts of comparing two runs: which rows go together, a word diff of two texts, and
// JSON compared field by field.
import { describe, expect, it } from 'vitest'
import { compareOutput } from '../../src/core/flows/compare/compare-rows'
import { jsonFieldDiff } from '../../src/core/flows/compare/json-diff'
import { inputKey, matchRows } from '../../src/core/flows/compare/match-rows'
import { wordDiff } from '../../src/core/flows/compare/word-diff'

describe('matching rows', () => {
  it('matches by the same cells, wherever the rows sit, then by position', () => {
    const a = [
      { index: 0, inputs: { message: 'x', n: 1 } },
      { index: 1, inputs: { message: 'y', n: 2 } },
      { index: 2, inputs: { message: 'z', n: 3 } },
    ]
    const b = [
      { index: 0, inputs: { n: 2, message: 'y' } },
      { index: 1, inputs: { message: 'x', n: 1 } },
      { index: 2, inputs: { message: 'new', n: 9 } },
    ]
    const pairs = matchRows(a, b)
    expect(pairs.map((p) => [p.a?.index ?? null, p.b?.index ?? null, p.matchedBy])).toEqual([
      [0, 1, 'inputs'],
      [1, 0, 'inputs'],
      // Known and different inputs are different rows, never a "change" of one row.
      [2, null, 'alone'],
      [null, 2, 'alone'],
    ])
  })

  it('pairs repeated inputs in order, and rows of unknown inputs by position', () => {
    const same = { message: 'again' }
    const pairs = matchRows(
      [
        { index: 0, inputs: same },
        { index: 1, inputs: same },
        { index: 2, inputs: null },
      ],
      [
        { index: 0, inputs: same },
        { index: 1, inputs: same },
        { index: 2, inputs: null },
        { index: 3, inputs: null },
      ],
    )
    expect(pairs.map((p) => [p.a?.index ?? null, p.b?.index ?? null, p.matchedBy])).toEqual([
      [0, 0, 'inputs'],
      [1, 1, 'inputs'],
      [2, 2, 'position'],
      [null, 3, 'alone'],
    ])
  })

  it('keys inputs the same whatever the order of their fields', () => {
    expect(inputKey({ a: 1, b: { d: 2, c: 3 } })).toBe(inputKey({ b: { c: 3, d: 2 }, a: 1 }))
    expect(inputKey({ a: '1' })).not.toBe(inputKey({ a: 1 }))
  })
})

describe('word diff', () => {
  it('keeps shared words and marks those only one side has; parts join back to each text', () => {
    const a = 'The quick brown fox jumps'
    const b = 'The slow brown fox leaps high'
    const parts = wordDiff(a, b)
    expect(parts).toEqual([
      { op: 'same', text: 'The ' },
      { op: 'removed', text: 'quick ' },
      { op: 'added', text: 'slow ' },
      { op: 'same', text: 'brown fox ' },
      { op: 'removed', text: 'jumps' },
      { op: 'added', text: 'leaps high' },
    ])
    const side = (op: string) =>
      parts
        .filter((p) => p.op === 'same' || p.op === op)
        .map((p) => p.text)
        .join('')
    expect(side('removed').replace(/\s+/g, ' ')).toBe(a)
    expect(side('added').replace(/\s+/g, ' ')).toBe(b)
  })

  it('is one part for equal texts and nothing for two empty ones', () => {
    expect(wordDiff('same words', 'same words')).toEqual([{ op: 'same', text: 'same words' }])
    expect(wordDiff('', '')).toEqual([])
    expect(wordDiff('', 'new')).toEqual([{ op: 'added', text: 'new' }])
  })
})

describe('JSON by field', () => {
  it('names every leaf by its path and says how it changed', () => {
    const fields = jsonFieldDiff(
      { summary: { words: 3, lang: 'en' }, tags: ['a', 'b'], gone: true },
      { summary: { words: '3', lang: 'en' }, tags: ['a', 'c', 'd'] },
    )
    expect(fields).toEqual([
      { path: 'summary.words', a: '3', b: '"3"', state: 'changed' },
      { path: 'summary.lang', a: '"en"', b: '"en"', state: 'same' },
      { path: 'tags[0]', a: '"a"', b: '"a"', state: 'same' },
      { path: 'tags[1]', a: '"b"', b: '"c"', state: 'changed' },
      { path: 'gone', a: 'true', b: null, state: 'removed' },
      { path: 'tags[2]', a: null, b: '"d"', state: 'added' },
    ])
  })
})

describe('one output compared', () => {
  const output = (
    kind: 'text' | 'json' | 'file',
    text: string,
    sizeBytes: number | null = null,
  ) => ({
    artifactId: `a-${text}`,
    portName: 'result',
    mimeType: kind === 'json' ? 'application/json' : kind === 'text' ? 'text/plain' : 'image/png',
    kind,
    text,
    truncated: false,
    sizeBytes,
    read: true,
  })

  it('JSON by field, text by words, files by type and size', () => {
    const json = compareOutput('result', output('json', '{"n":1}'), output('json', '{"n":2}'))
    expect(json).toMatchObject({
      kind: 'json',
      same: false,
      fields: [{ path: 'n', state: 'changed' }],
    })
    const text = compareOutput('result', output('text', 'a b'), output('text', 'a b'))
    expect(text).toMatchObject({ kind: 'text', same: true, words: [] })
    const files = compareOutput('result', output('file', '', 10), output('file', '', 12))
    expect(files).toMatchObject({
      kind: 'file',
      same: false,
      a: { sizeBytes: 10 },
      b: { sizeBytes: 12 },
    })
    expect(compareOutput('result', output('text', 'x'), undefined)).toMatchObject({
      same: false,
      b: null,
    })
  })
})
