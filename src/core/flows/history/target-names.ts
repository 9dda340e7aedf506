/**
 * The name a buyer knows a submission's template or listing by, from what this computer keeps:
 * the run it became (the service names its template or listing), the template's schema saved
 * for offline use, or another run of the same template or listing seen here. '' when none of
 * them names it, and the window falls back to the kind and the id.
 */
import type { RunSummary } from '../../../shared/contract'
import type { History } from '../../storage/run-history'
import type { Schemas } from '../prepare/schema-cache'
import type { Submission } from '../spend/submissions'

/** Where names are looked up; without schemas, only the runs seen here are asked. */
export interface NameSources {
  history: Pick<History, 'finishedRunsOf'>
  schemas?: Pick<Schemas, 'cached'> | undefined
}

type Target = Pick<Submission, 'historyKey' | 'targetKind' | 'targetId'>

/** A name that is only the id again says nothing more than the id. */
function named(name: string | undefined, target: Target): string {
  const trimmed = name?.trim() ?? ''
  return trimmed === target.targetId ? '' : trimmed
}

function nameFromRun(run: RunSummary | null, target: Target): string {
  if (!run) return ''
  return target.targetKind === 'listing'
    ? named(run.market?.skillName, target) || named(run.templateName, target)
    : named(run.templateName, target)
}

function nameKnownHere(sources: NameSources, target: Target): string {
  if (target.targetKind === 'template') {
    const saved = sources.schemas?.cached(target.historyKey, target.targetId)
    const fromSchema = named(saved?.schema.name, target)
    if (fromSchema) return fromSchema
  }
  const where =
    target.targetKind === 'listing'
      ? { listingId: target.targetId }
      : { templateKey: target.targetId }
  const [other] = sources.history.finishedRunsOf(target.historyKey, where, 1)
  return nameFromRun(other ?? null, target)
}

/**
 * Names for one listing of the history: each template or listing is looked up once, however
 * many submissions name it; the submission's own run is asked first.
 */
export function targetNamer(sources: NameSources) {
  const known = new Map<string, string>()
  return (target: Target, run: RunSummary | null): string => {
    const own = nameFromRun(run, target)
    if (own) return own
    const key = `${target.historyKey}\n${target.targetKind}\n${target.targetId}`
    let name = known.get(key)
    if (name === undefined) {
      name = nameKnownHere(sources, target)
      known.set(key, name)
    }
    return name
  }
}
