/**
 * The state and actions of target-slice.ts, kept apart from its code so the store's state type can
 * name them without importing the slice (no import circle).
 */
import type {
  BridgeErrorInfo,
  ListingView,
  SavedFileView,
  TemplateChoice,
  TemplateView,
} from '../../../shared/bridge'
import type { RunTarget } from '../../../shared/run-target'

export interface TargetData {
  templates: TemplateChoice[]
  templatesOffline: boolean
  templatesLoading: boolean
  templatesError: BridgeErrorInfo | null

  target: RunTarget | null
  template: TemplateView | null
  templateLoading: boolean
  templateError: BridgeErrorInfo | null

  /** The buyer's view of the chosen listing (name, fee, terms, form). */
  listing: ListingView | null
  listingLoading: boolean
  listingError: BridgeErrorInfo | null

  /** "Get the input workbook". */
  workbookSaving: boolean
  workbookSaved: SavedFileView | null
  workbookSaveError: BridgeErrorInfo | null
}

export interface TargetActions {
  loadTemplates(): Promise<void>
  chooseTemplate(templateId: string): Promise<void>
  chooseListing(listingId: string, listingVersionId: string): Promise<void>
  /**
   * A workbook the app made names what it is for: show that target's form. The workbook was
   * just checked against it, so it is not checked again.
   */
  adoptWorkbookTarget(target: RunTarget): void
  getInputWorkbook(): Promise<void>
  openSaved(path: string): Promise<void>
}
