/** Preparing a run (the "New run" screen): templates, input workbooks, checks. */
import * as z from 'zod'
import type {
  CheckedRowsView,
  DroppedFileInfo,
  SavedFileView,
  TemplateListView,
  TemplateView,
  WorkbookCheckView,
} from '../views/prepare'
import type { CatalogView } from '../views/catalog'
import type { ListingView } from '../views/spending'
import {
  environmentNameSchema,
  fileRefSchema,
  idSchema,
  runTargetSchema,
  request,
} from './arguments'

const prepareIdSchema = z.string().trim().min(1, 'Enter an id.').max(256)
const checkIdSchema = z
  .string()
  .min(8)
  .max(64)
  .regex(/^[A-Za-z0-9-]+$/)
export const prepareRequests = {
  /** The official templates the app knows here: the built-in Sandbox's, and those cached. */
  listTemplates: request<TemplateListView>()(
    z.strictObject({ environment: environmentNameSchema }),
  ),
  /**
   * What can be run here: the templates and listings the service's answers and this computer
   * know (the user's runs, the creator's listings, what was sent before), with their versions.
   */
  listCatalog: request<CatalogView>()(z.strictObject({ environment: environmentNameSchema })),
  /** A template's schema: fresh from the service, or the saved copy (with its age) offline. */
  getTemplate: request<TemplateView>()(
    z.strictObject({ environment: environmentNameSchema, templateId: prepareIdSchema }),
  ),
  /**
   * "Get the input workbook": the desktop app asks where to save it (null when cancelled); a
   * browser gets the bytes to download.
   */
  saveInputWorkbook: request<SavedFileView | null>()(
    z.strictObject({ environment: environmentNameSchema, target: runTargetSchema }),
  ),
  /**
   * Reads and checks a workbook in a worker (`checkProgress` events follow; `cancelCheck` stops
   * it). Without a target, a workbook made by the app names its own. Spends nothing, works
   * offline with a saved schema.
   */
  checkWorkbook: request<WorkbookCheckView>()(
    z.strictObject({
      environment: environmentNameSchema,
      /** Made by the page, so it can cancel the check while it runs. */
      checkId: checkIdSchema,
      file: fileRefSchema,
      target: runTargetSchema.optional(),
      /** Values of run-scoped fields from the form, by field key (they win over the sheet). */
      runValues: z.record(prepareIdSchema, z.string().max(10_000)).optional(),
      /** The sheet to read, by name, when the user chose one (without it the reader chooses). */
      sheet: z.string().min(1).max(256).optional(),
      /**
       * The column mapping the user confirmed: the sheet's header -> field key (null: not
       * used). Remembered for this target and set of headers when it fits the sheet.
       */
      mapping: z
        .record(z.string().max(1000), z.string().min(1).max(256).nullable())
        .refine((m) => Object.keys(m).length <= 2000, 'Too many columns.')
        .optional(),
    }),
  ),
  cancelCheck: request<null>()(z.strictObject({ checkId: checkIdSchema })),
  /** Rows of a checked workbook for the grid, as the user typed them, bad cells marked. */
  getCheckedRows: request<CheckedRowsView>()(
    z.strictObject({
      checkId: checkIdSchema,
      offset: z.number().int().min(0).max(10_000_000),
      limit: z.number().int().min(1).max(2000),
    }),
  ),
  /** "Save a marked-up copy": the workbook with its bad cells marked and an Errors sheet. */
  saveMarkedUpCopy: request<SavedFileView | null>()(z.strictObject({ checkId: checkIdSchema })),
  /** Opens a file the app saved in this session with the system's app for it (desktop only). */
  openSavedFile: request<null>()(z.strictObject({ path: z.string().min(1).max(4096) })),
  /** A marketplace listing as a buyer sees it (schema, fee, terms), whoever created it. */
  getListing: request<ListingView>()(
    z.strictObject({ environment: environmentNameSchema, listingId: idSchema }),
  ),
  describeFile: request<DroppedFileInfo>()(z.strictObject({ file: fileRefSchema })),
}
