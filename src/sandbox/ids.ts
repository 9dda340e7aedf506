import { randomBytes } from 'node:crypto'

/** A new random id with a readable prefix, e.g. `run_5f0c...`; safe as a file name. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`
}

export const unixNow = (): number => Math.floor(Date.now() / 1000)
