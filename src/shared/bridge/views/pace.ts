/** How fast earlier runs went, from this computer's history: for the time left of a new run. */
import type { PaceSample } from '../../format'

export interface EarlierPacesView {
  /** Finished runs of the templates and listings asked about, newest first per target. */
  samples: PaceSample[]
}
