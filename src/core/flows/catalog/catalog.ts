/**
 * What can be run on a connection, gathered from what the service and this computer tell (the
 * service has no catalog to ask): the Sandbox's own templates and saved schemas, the user's
 * runs (each names its template, or its listing, version and skill), the creator's own
 * listings, and the submissions journal. A place that cannot answer is left out: an
 * unreachable service makes the list this computer's alone (`offline`), and a user who is no
 * creator simply has no listings of their own.
 */
import type { CatalogEntry } from '../../../shared/bridge'
import type { Connection } from '../../environments/connection'
import { ApiError } from '../../service'
import type { Submissions } from '../spend/submissions'
import type { Schemas } from '../prepare/schema-cache'
import { knownTemplates } from '../prepare/templates'
import { buildCatalog, type UsedHere } from './merge'

export interface CatalogServices {
  schemas: Pick<Schemas, 'template' | 'ids' | 'cached'>
  submissions: Pick<Submissions, 'search'>
}

/** How many runs and listings are read to build the list (newest first). */
const RUNS_READ = 500
const LISTINGS_READ = 200

export async function knownCatalog(
  services: CatalogServices,
  connection: Connection,
  signal?: AbortSignal,
): Promise<{ items: CatalogEntry[]; offline: boolean }> {
  let offline = false
  /** A read the service could not answer: unreachable makes the list offline; else nothing. */
  const orNothing = (error: unknown) => {
    if (!(error instanceof ApiError)) throw error
    if (error.isUnreachable) offline = true
    return []
  }
  const [templates, runs, ownListings] = await Promise.all([
    knownTemplates(services, connection),
    connection.client
      .listAllRuns({ limit: RUNS_READ }, { signal })
      .then((all) => all.items, orNothing),
    connection.client.listAllCreatorListings({ limit: LISTINGS_READ }, { signal }).catch(orNothing),
  ])
  const usedHere: UsedHere[] = services.submissions
    .search({ environment: connection.name, limit: RUNS_READ })
    .filter((s) => s.historyKey === connection.historyKey && s.state === 'accepted')
  return {
    items: buildCatalog({ templates: templates.items, runs, ownListings, usedHere }),
    offline: offline || templates.offline,
  }
}
