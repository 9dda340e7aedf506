import { createHash, randomBytes } from 'node:crypto'

/** A new random id with a readable prefix, e.g. `run_5f0c...`; safe as a file name. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`
}

export const unixNow = (): number => Math.floor(Date.now() / 1000)

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex')
}

/** A stable UUID-shaped id derived from a name (the sandbox's `templateUuid`). */
export function uuidFrom(name: string): string {
  const h = sha256Hex(name)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}
