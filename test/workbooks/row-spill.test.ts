// A sheet's rows kept in a spill file give back, row for row, what the same read keeps in
// memory: dates read in the order the whole column shows, run values given to every row, rows
// set aside left out; the file is the user's alone, and a read that cannot be sent keeps none.
import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseInputWorkbook, readSpilledRows } from '../../src/core/workbooks'
import { schemaOf } from './support/schemas'

const dir = mkdtempSync(join(tmpdir(), 'sr-spill-'))
const schema = schemaOf('t', 'T', [
  { key: 'name', label: 'Name', type: 'string', required: true },
  { key: 'due', label: 'Due', type: 'date' },
  { key: 'tone', label: 'Tone', type: 'enum', scope: 'run', enumValues: ['warm', 'dry'] },
  { key: 'count', label: 'Count', type: 'integer' },
])

function csv(name: string, lines: string[]): string {
  const path = join(dir, name)
  writeFileSync(path, lines.join('\n'))
  return path
}

const readBoth = async (path: string, more: Parameters<typeof parseInputWorkbook>[2] = {}) => {
  const whole = await parseInputWorkbook({ path }, schema, { keepRows: true, ...more })
  const spill = join(dir, `spill-${readdirSync(dir).length}.jsonl`)
  const spilled = await parseInputWorkbook({ path }, schema, {
    keepRows: true,
    ...more,
    ...(more.setAside ? { setAside: { ...more.setAside, path: `${more.setAside.path}.2` } } : {}),
    spill: { path: spill },
  })
  return { whole, spilled, spill }
}

describe('rows kept in a spill file', () => {
  it('reads back the rows the read keeps in memory, patched by what the whole sheet shows', async () => {
    const lines = ['Name,Due,Tone,Count']
    // 03/04 could be either until 25/12 shows the day comes first; the tone is given once.
    lines.push('Ada,03/04/2026,warm,1', 'Bob,25/12/2026,,2', 'Cy "é ✓",,,3')
    for (let i = 4; i <= 700; i += 1) lines.push(`Row ${i},2026-01-02,,${i}`)
    const { whole, spilled, spill } = await readBoth(csv('sheet.csv', lines))
    expect(whole.valid).toBe(true)
    expect(spilled.rows).toEqual([])
    expect(spilled.rowNumbers).toEqual(whole.rowNumbers)
    expect(whole.rows[0]).toMatchObject({ due: '2026-04-03', tone: 'warm' })
    expect(whole.rows[2]).toMatchObject({ tone: 'warm' })
    const all = whole.rows.map((_, i) => i)
    expect(await readSpilledRows(spilled.spill!, all)).toEqual(whole.rows)
    // Any run of rows on its own, as a part is read.
    expect(await readSpilledRows(spilled.spill!, [1, 2, 3, 600])).toEqual(
      [1, 2, 3, 600].map((i) => whole.rows[i]),
    )
    expect(statSync(spill).mode & 0o777).toBe(0o600)
  })

  it('reads back rows written across many writes, characters of every width and a row over 1 MB', async () => {
    // About 2.5 MB of lines: several writes of the writer's 1 MB buffer, lines of 1, 2, 3 and
    // 4-byte characters falling across each boundary, and one row longer than the buffer.
    const lines = ['Name,Due,Tone,Count']
    for (let i = 1; i <= 600; i += 1) lines.push(`${'aé✓😀'.repeat(150 + (i % 7))} ${i},,dry,${i}`)
    lines.splice(300, 0, `${'✓'.repeat(400_000)},,dry,0`)
    const { whole, spilled } = await readBoth(csv('wide.csv', lines))
    expect(whole.valid).toBe(true)
    expect(whole.rows).toHaveLength(601)
    const all = whole.rows.map((_, i) => i)
    expect(await readSpilledRows(spilled.spill!, all)).toEqual(whole.rows)
    expect(await readSpilledRows(spilled.spill!, [298, 299, 300])).toEqual(
      [298, 299, 300].map((i) => whole.rows[i]),
    )
  })

  it('leaves the rows set aside out of the file, as the read leaves them out of its rows', async () => {
    const path = csv('aside.csv', ['Name,Due,Tone,Count', 'Ada,,,1', 'Bob,,,x', 'Cy,,,3'])
    const setAside = { path: join(dir, 'aside.xlsx'), about: [] }
    const { whole, spilled } = await readBoth(path, { setAside })
    expect(whole.setAside?.rows).toBe(1)
    expect(spilled.rowNumbers).toEqual([2, 4])
    expect(await readSpilledRows(spilled.spill!, [0, 1])).toEqual(whole.rows)
  })

  it('keeps no file for a read that cannot be sent', async () => {
    const path = csv('bad.csv', ['Name,Due,Tone,Count', 'Ada,,,1', ',,,x'])
    const { spilled, spill } = await readBoth(path)
    expect(spilled.valid).toBe(false)
    expect(spilled.spill).toBeUndefined()
    expect(existsSync(spill)).toBe(false)
  })
})
