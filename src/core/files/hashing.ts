/**
 * SHA-256 and random ids, with node:crypto loaded when first used: many commands (a validate)
 * never hash a file nor make an id, and loading node:crypto is a few ms of every start.
 */
import type { Hash } from 'node:crypto'

const crypto = () => process.getBuiltinModule('node:crypto')

/** A SHA-256 hash to feed. */
export function sha256Hash(): Hash {
  return crypto().createHash('sha256')
}

/** A random UUID (v4). */
export function randomId(): string {
  return crypto().randomUUID()
}
