/** What restoring the New run screen's draft answers. */
import type { PrepareDraft } from '../requests/draft-schema'

/**
 * A draft's workbook as it is now: the same as when kept (its content comes along, and over IPC
 * its path, so the desktop keeps reading the user's own file), changed since, or gone.
 */
export type DraftWorkbookView =
  | { state: 'same'; name: string; sizeBytes: number; base64: string; path: string | null }
  | { state: 'changed' | 'missing'; name: string }

export interface PrepareDraftView {
  environment: string
  draft: PrepareDraft
  workbook: DraftWorkbookView | null
  savedAtMs: number
}
