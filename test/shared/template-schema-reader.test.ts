// The hand-written reader of a saved template schema must read exactly as the contract's zod
// schema does: every value either both refuse, or both accept and read the same.
import { describe, expect, it } from 'vitest'
import { officialTemplateSchemaSchema } from '../../src/shared/contract'
import { readTemplateSchema } from '../../src/shared/contract/template-schema-reader'

const full = {
  templateId: 'row-echo',
  name: 'Row echo',
  description: 'Echoes each row',
  scenario: 'demo',
  version: '3',
  inputSummary: 'one message per row',
  outputType: 'text',
  instructions: ['Fill one row per message.'],
  columns: [
    { fieldKey: 'message', headerLabel: 'Message', order: 0 },
    { fieldKey: 'seq', headerLabel: 'Sequence number', order: 1 },
  ],
  fields: [
    {
      key: 'message',
      label: 'Message',
      type: 'string',
      scope: 'row',
      required: true,
      multiValue: false,
      acceptedInputKinds: ['text'],
      acceptedMimeTypes: ['text/plain'],
      enumValues: [],
      examples: ['hello'],
      inputHint: 'Any text',
      businessHint: '',
    },
    { key: 'seq', type: 'integer' },
  ],
  sampleRows: [{ values: { message: 'hello', seq: 1 } }],
}

/** Values of every kind a JSON column can hold, and the edges of the contract's checks. */
const KINDS: unknown[] = [
  undefined,
  null,
  '',
  'x',
  0,
  -0,
  7,
  1.5,
  -3,
  2 ** 53,
  1e300,
  true,
  false,
  [],
  ['a'],
  [1],
  [null],
  {},
  { a: 1 },
  { values: {} },
]

type Path = (string | number)[]

/** Every place in `value` a different value could stand, and a key it does not have yet. */
function paths(value: unknown, at: Path = []): Path[] {
  const found: Path[] = [at]
  if (Array.isArray(value)) value.forEach((v, i) => found.push(...paths(v, [...at, i])))
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) found.push(...paths(v, [...at, k]))
    found.push([...at, 'unknownKey'])
  }
  return found
}

function replaced(value: unknown, path: Path, by: unknown): unknown {
  if (path.length === 0) return by
  const copy = structuredClone(value) as Record<string | number, unknown>
  let node = copy
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>
  const last = path.at(-1)!
  if (by === undefined && !Array.isArray(node)) delete node[last]
  else node[last] = by
  return copy
}

function bothRead(value: unknown) {
  const parsed = officialTemplateSchemaSchema.safeParse(value)
  expect(readTemplateSchema(value)).toEqual(parsed.success ? parsed.data : null)
}

describe('a saved template schema read without zod', () => {
  it('reads a whole schema, and a sparse one, as the contract does', () => {
    bothRead(full)
    bothRead({ templateId: 't' })
    bothRead(JSON.parse('{"templateId":"t","sampleRows":[{"values":{"__proto__":{"a":1},"b":2}}]}'))
  })

  it('refuses and accepts the same values, in every field, as the contract does', () => {
    let compared = 0
    for (const path of paths(full))
      for (const kind of KINDS) {
        bothRead(replaced(full, path, kind))
        compared += 1
      }
    expect(compared).toBeGreaterThan(1000)
  })
})
