/**
 * Optional values as options: an option that may be missing is passed as `...defined({ a, b })`
 * instead of one `...(a ? { a } : {})` per value, so a missing option is absent rather than
 * present as undefined (which would hide a default it is spread over, and shows in what is
 * written or sent). A key whose value is undefined is left out; every other stays.
 */
export type Defined<T> = { [K in keyof T]?: Exclude<T[K], undefined> }

export function defined<T extends object>(values: T): Defined<T> {
  const kept: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(values)) if (value !== undefined) kept[key] = value
  return kept as Defined<T>
}
