/**
 * How fast earlier runs of a template or listing went, read from this computer's history of runs
 * seen (not only the runs a screen has fetched): what "time left" goes by before a new run has
 * two rows done. Only the figures; the arithmetic is shared/format/run-pace.ts's, kept pure.
 */
import { paceSample, type PaceSample } from '../../../shared/format'
import type { History } from '../../storage/run-history'

export interface EarlierPaceServices {
  history: Pick<History, 'finishedRunsOf'>
}

/** The newest finished runs looked at per target: their median is the estimate. */
const RUNS_PER_TARGET = 20

export function earlierPaceSamples(
  services: EarlierPaceServices,
  historyKey: string,
  targets: { templateKeys: readonly string[]; listingIds: readonly string[] },
): PaceSample[] {
  const each = [
    ...[...new Set(targets.templateKeys)].map((templateKey) => ({ templateKey })),
    ...[...new Set(targets.listingIds)].map((listingId) => ({ listingId })),
  ]
  return each.flatMap((target) =>
    services.history
      .finishedRunsOf(historyKey, target, RUNS_PER_TARGET)
      .flatMap((run) => paceSample(run) ?? []),
  )
}
