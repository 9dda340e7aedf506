/**
 * The state and actions of draft-slice.ts, kept apart from its code so the store's state type can
 * name them without importing the slice (no import circle).
 */
import type { DraftStep } from '../../../shared/bridge'

/** What the "Picked up where you left off" note says after a draft was restored. */
export interface RestoredNote {
  step: DraftStep
  savedAtMs: number
  /** The workbook could not be brought back: changed since, or no longer where it was. */
  workbookProblem: { state: 'changed' | 'missing'; name: string } | null
  /** The run the draft became, when it was sent. */
  sentRunId: string | null
}

export interface DraftData {
  /** The environment's draft was looked for: until then nothing is saved over it. */
  draftReady: boolean
  restored: RestoredNote | null
  /** The column mapping the user confirmed for the workbook on screen (kept in the draft). */
  mapping: Record<string, string | null> | null
}

export interface DraftActions {
  /** Brings back the environment's draft, if any: the choices, the workbook checked again. */
  restoreDraft(): Promise<void>
  dismissRestored(): void
}
