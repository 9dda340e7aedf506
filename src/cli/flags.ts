/**
 * The flags several commands share, kept apart from the code that reads them so that a command's
 * declaration (what --help and completion show) loads none of that code.
 */

/** `--map` and `--map-file` on validate, run and execute (read in column-mapping.ts). */
export const mappingFlags = {
  map: { type: 'string' },
  'map-file': { type: 'string' },
} as const

/** `--skip-invalid [--set-aside F.xlsx]` on run and execute (read in set-aside.ts). */
export const setAsideFlags = {
  'skip-invalid': { type: 'boolean' },
  'set-aside': { type: 'string' },
} as const

/** The flags of every command that sends a paid run: the consent, the cap, and following it. */
export const paidRunFlags = {
  yes: { type: 'boolean' },
  watch: { type: 'boolean' },
  'max-cost': { type: 'string' },
  again: { type: 'boolean' },
} as const
