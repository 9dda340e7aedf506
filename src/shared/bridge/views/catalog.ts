/**
 * What can be run here, as the service and this computer tell it (the service has no catalog):
 * the Sandbox's own templates, the templates and listings named in the user's runs, the
 * creator's own listings, and what this computer sent before. Verb: listCatalog.
 */

/** Where an entry was found. */
export type CatalogSource = 'runs' | 'this-computer' | 'own-listing' | 'sandbox' | 'saved-schema'

/** One version of a listing that is known, and where from. */
export interface CatalogVersion {
  versionId: string
  source: CatalogSource
  /** When the user last ran this version (seconds since 1970); absent when never. */
  lastUsedAtUnix?: number
}

export interface CatalogEntry {
  kind: 'template' | 'listing'
  id: string
  name: string
  description: string
  /** A listing's version offered: the latest one the user ran, else the one its creator shows. */
  versionId?: string
  /** Every version known of a listing, the offered one first; empty for a template. */
  versions: CatalogVersion[]
  /** Where it was found first (the list below in that order). */
  source: CatalogSource
  sources: CatalogSource[]
  /** When it was last run (seconds since 1970); absent when never. */
  lastUsedAtUnix?: number
  /** The cost of one row in its latest run, in the environment's unit; absent when unknown. */
  lastCostPerRowT?: number
  /** Rows run in all, in the runs the service lists and those sent from this computer. */
  rowsRun: number
  /** Why it cannot be run now, in a buyer's words ("No longer sold"); absent when it can. */
  notRunnable?: string
}

export interface CatalogView {
  environment: string
  unitLabel: string
  items: CatalogEntry[]
  /** True when the service could not be reached: the list is what this computer knows. */
  offline: boolean
}
