/**
 * Two JSON outputs compared field by field: every leaf, named by its path ("summary.words",
 * "items[2]"), with its value on each side. Values are given as JSON text so that a string "3"
 * and a number 3 are told apart.
 */
export type FieldDiff = {
  path: string
  a: string | null
  b: string | null
  state: 'same' | 'changed' | 'removed' | 'added'
}

/** Leaves of a JSON value by path; an empty object or array is a leaf of its own. */
function leaves(value: unknown, path: string, out: Map<string, string>): Map<string, string> {
  if (Array.isArray(value) && value.length > 0)
    value.forEach((item, i) => leaves(item, `${path}[${i}]`, out))
  else if (value !== null && typeof value === 'object' && Object.keys(value).length > 0)
    for (const [key, item] of Object.entries(value))
      leaves(item, path ? `${path}.${key}` : key, out)
  else out.set(path || '(whole value)', JSON.stringify(value))
  return out
}

export function jsonFieldDiff(a: unknown, b: unknown): FieldDiff[] {
  const left = leaves(a, '', new Map())
  const right = leaves(b, '', new Map())
  const paths = [...left.keys(), ...[...right.keys()].filter((p) => !left.has(p))]
  return paths.map((path) => {
    const x = left.get(path) ?? null
    const y = right.get(path) ?? null
    const state = x === null ? 'added' : y === null ? 'removed' : x === y ? 'same' : 'changed'
    return { path, a: x, b: y, state }
  })
}

/** The value of a JSON text, or undefined when it is not JSON. */
export function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
