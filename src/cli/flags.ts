/**
 * The flags several commands share, kept apart from the code that reads them so that a command's
 * declaration (what --help and completion show) loads none of that code.
 */

/** An option that takes a value, one that does not, and `-o`/`--output`. */
export const VALUE = { type: 'string' } as const
export const SWITCH = { type: 'boolean' } as const
export const OUTPUT = { type: 'string', short: 'o' } as const

/** `--search Q [--limit N]` on the commands that list: `listings` and `history`. */
export const searchFlags = { search: VALUE, limit: VALUE }

/** `--map` and `--map-file` on validate, run and execute (read in column-mapping.ts). */
export const mappingFlags = { map: VALUE, 'map-file': VALUE }

/** `--skip-invalid [--set-aside F.xlsx]` on run and execute (read in set-aside.ts). */
export const setAsideFlags = { 'skip-invalid': SWITCH, 'set-aside': VALUE }

/** The flags of every command that sends a paid run: the consent, the cap, and following it. */
export const paidRunFlags = { yes: SWITCH, watch: SWITCH, 'max-cost': VALUE, again: SWITCH }
