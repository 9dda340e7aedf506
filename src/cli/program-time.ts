/**
 * When the command line's code was written to disk (rebuilt with any change): a template schema
 * the built-in Sandbox gave since then is what it would answer now (flows/prepare/schema-cache.ts).
 */
import { statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export function programWrittenAtMs(): number | undefined {
  try {
    return statSync(fileURLToPath(import.meta.url)).mtimeMs
  } catch {
    return undefined
  }
}
