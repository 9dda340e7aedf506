/**
 * Zod schemas of every resource of the Skill Execution Service interface
 * (shared/spec/skill-execution-service.md). Field names are exactly the interface's.
 *
 * Parsing rules (DESIGN.md, reliability rules):
 * - unknown fields are dropped, never an error (z.object strips them);
 * - identifiers and statuses are required: a missing one is an error that names the field;
 * - descriptive fields that a server may leave out become '' / 0 / [] so the UI never handles
 *   `undefined` for them; `null` is read as absent.
 */
import * as z from 'zod'

// The field shapes the contract uses most, each built once: a schema is never changed once
// made, so every field can share it, and building them field by field was most of the time the
// command line took to load the contract.
const TEXT = z
  .string()
  .nullish()
  .transform((v) => v ?? '')
const INT = z
  .number()
  .int()
  .nullish()
  .transform((v) => v ?? 0)
/** A string the server may omit or send as null; read as ''. */
const text = () => TEXT
/** An integer the server may omit or send as null; read as 0. */
const int = () => INT
/** A list the server may omit or send as null; read as []. */
const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullish()
    .transform((v) => v ?? [])
const ID = z.string().min(1)
const id = () => ID

export const marketContextSchema = z.object({
  listingId: text(),
  listingVersionId: text(),
  runId: text(),
  runTransactionId: text(),
  skillName: text(),
  transactionStatus: text(),
  pricingRuleVersion: text(),
  taskFixedFeeT: int(),
  estimatedExecutionCostT: int(),
  actualExecutionCostT: int(),
  estimatedBuyerPayableT: int(),
  finalBuyerPayableT: int(),
})
export type MarketContext = z.infer<typeof marketContextSchema>

/**
 * The `market` of a run: absent, null or an empty object (a template run) all read as
 * undefined, so only a real market context (one that names its listing) is ever used.
 */
const optionalMarket = () =>
  marketContextSchema.nullish().transform((v) => (v && v.listingId ? v : undefined))

/** The market execute answer: the twelve market context fields; runId is required here. */
export const executionResultSchema = marketContextSchema.extend({
  runId: id(),
  runTransactionId: id(),
})
export type ExecutionResult = z.infer<typeof executionResultSchema>

export const runSummarySchema = z.object({
  runId: id(),
  displayName: text(),
  status: z.string(),
  sourceType: text(),
  templateKey: text(),
  templateName: text(),
  templateUuid: text(),
  definitionHash: text(),
  inputFilename: text(),
  totalTasks: int(),
  completedTasks: int(),
  failedTasks: int(),
  cancelledTasks: int(),
  estimatedCostT: int(),
  actualCostT: int(),
  firstErrorMessage: text(),
  createdAtUnix: int(),
  startedAtUnix: int(),
  completedAtUnix: int(),
  updatedAtUnix: int(),
  market: optionalMarket(),
})
export type RunSummary = z.infer<typeof runSummarySchema>

export const runTaskSchema = z.object({
  taskId: id(),
  status: z.string(),
  sourceRowIndex: z.number().int(),
  artifactCount: int(),
  errorMessage: text(),
})
export type RunTask = z.infer<typeof runTaskSchema>

export const artifactSchema = z.object({
  artifactId: id(),
  taskId: text(),
  stepId: text(),
  portName: text(),
  sourceRowIndex: z.number().int(),
  mimeType: text(),
  accessUrl: text(),
  inlineText: text(),
  createdAtUnix: int(),
})
export type Artifact = z.infer<typeof artifactSchema>

export const runDetailSchema = z.object({
  run: runSummarySchema,
  market: optionalMarket(),
  tasks: list(runTaskSchema),
  artifacts: list(artifactSchema),
})
export type RunDetail = z.infer<typeof runDetailSchema>

export const runListSchema = z.object({
  items: list(runSummarySchema),
  nextPageToken: text(),
  totalCount: int(),
})
export type RunList = z.infer<typeof runListSchema>

export const inputAssetSchema = z.object({
  inputAssetId: id(),
  filename: text(),
  mimeType: text(),
  sizeBytes: int(),
  uploadedAt: int(),
})
export type InputAsset = z.infer<typeof inputAssetSchema>

export const creatorListingSchema = z.object({
  id: id(),
  displayName: text(),
  description: text(),
  ownerUserId: int(),
  listingVersionId: text(),
  publishedVersionId: text(),
  packageHash: text(),
  inputSchemaSnapshot: text(),
  pricingRuleVersion: text(),
  pricingSnapshotHash: text(),
  taskFixedFeeT: int(),
  status: z.string(),
  saleStatus: text(),
  executionAvailabilityStatus: text(),
  reviewStatus: text(),
  reviewReason: text(),
  reviewRequestId: text(),
})
export type CreatorListing = z.infer<typeof creatorListingSchema>

/**
 * The buyer's read of a published listing, `GET /svc/v1/marketListings/{id}` (DESIGN.md, "Buyer's
 * view of a listing"): the creator listing's public fields, for any authenticated user.
 */
export const marketListingSchema = z.object({
  id: id(),
  displayName: text(),
  description: text(),
  listingVersionId: text(),
  publishedVersionId: text(),
  pricingRuleVersion: text(),
  /** Absent or null when the service does not show the fee: then it is not known. */
  taskFixedFeeT: z
    .number()
    .int()
    .nullish()
    .transform((v) => v ?? null),
  inputSchemaSnapshot: text(),
  status: z.string(),
  saleStatus: text(),
  executionAvailabilityStatus: text(),
})
export type MarketListing = z.infer<typeof marketListingSchema>

export const creatorListingListSchema = z.object({
  items: list(creatorListingSchema),
  nextPageToken: text(),
})
export type CreatorListingList = z.infer<typeof creatorListingListSchema>

export const reviewRequestSchema = z.object({
  id: id(),
  listingId: text(),
  listingVersionId: text(),
  displayName: text(),
  description: text(),
  status: z.string(),
  reviewReason: text(),
  submittedAtUnix: int(),
  reviewedAtUnix: int(),
})
export type ReviewRequest = z.infer<typeof reviewRequestSchema>

export const schemaColumnSchema = z.object({
  fieldKey: z.string().min(1),
  headerLabel: text(),
  order: int(),
})
export type SchemaColumn = z.infer<typeof schemaColumnSchema>

export const schemaFieldSchema = z.object({
  key: z.string().min(1),
  label: text(),
  type: z.string().min(1),
  scope: z
    .string()
    .nullish()
    .transform((v) => v || 'row'),
  required: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  multiValue: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  acceptedInputKinds: list(z.string()),
  acceptedMimeTypes: list(z.string()),
  enumValues: list(z.string()),
  examples: list(z.string()),
  inputHint: text(),
  businessHint: text(),
})
export type SchemaField = z.infer<typeof schemaFieldSchema>

export const sampleRowSchema = z.object({
  values: z.record(z.string(), z.unknown()),
})

export const officialTemplateSchemaSchema = z.object({
  templateId: id(),
  name: text(),
  description: text(),
  scenario: text(),
  version: text(),
  inputSummary: text(),
  outputType: text(),
  instructions: list(z.string()),
  columns: list(schemaColumnSchema),
  fields: list(schemaFieldSchema),
  sampleRows: list(sampleRowSchema),
})
export type OfficialTemplateSchema = z.infer<typeof officialTemplateSchemaSchema>

/** The input schema of a listing (its `inputSchemaSnapshot` is this as JSON text). */
export const listingInputSchemaSchema = z.object({
  columns: list(schemaColumnSchema),
  fields: list(schemaFieldSchema),
})
export type ListingInputSchema = z.infer<typeof listingInputSchemaSchema>

export const versionSummarySchema = z.object({
  versionId: id(),
  versionNumber: int(),
  specVersion: text(),
  definitionHash: text(),
  createdAtUnix: int(),
})

export const privateTemplateSchema = z.object({
  templateId: id(),
  name: text(),
  description: text(),
  status: text(),
  primaryOutputType: text(),
  latestVersionId: text(),
  publishedVersionId: text(),
  createdAtUnix: int(),
  updatedAtUnix: int(),
  versions: list(versionSummarySchema),
})
export type PrivateTemplate = z.infer<typeof privateTemplateSchema>

export const rowErrorSchema = z.object({
  error: z.string(),
  fieldKey: text(),
  rowIndex: z.number().int(),
})
export type RowError = z.infer<typeof rowErrorSchema>

export const workbookValidationSchema = z.object({
  valid: z.boolean(),
  fileErrors: list(z.string()),
  rowErrors: list(rowErrorSchema),
})
export type WorkbookValidation = z.infer<typeof workbookValidationSchema>

export const runRowsAcceptanceSchema = z.object({
  acceptedAtUnix: int(),
  runId: id(),
  status: z.string(),
})
export type RunRowsAcceptance = z.infer<typeof runRowsAcceptanceSchema>

/**
 * The answer of /svc/v1/models. The interface does not show its body and the app calls it only to
 * prove that the token works, so any JSON is accepted as it came.
 */
export const modelsAnswerSchema = z.unknown()

// ---- request bodies -------------------------------------------------------------------------

/** A row as sent to the service: field key -> value (strings, numbers, booleans, arrays, assets). */
export const inputRowSchema = z.record(z.string(), z.unknown())
export type InputRow = z.infer<typeof inputRowSchema>

export const executeBodySchema = z.object({
  clientRequestId: z.string().min(1),
  confirm: z.boolean(),
  inputRows: z.array(inputRowSchema),
  listingVersionId: z.string().min(1),
})
export type ExecuteBody = z.infer<typeof executeBodySchema>

export const validateWorkbookBodySchema = z.object({
  clientRequestId: z.string().min(1),
  confirm: z.boolean(),
  content: z.array(z.number().int().min(0).max(255)),
  filename: z.string().min(1),
  listingVersionId: z.string().min(1),
})

export const runRowsBodySchema = z.object({
  callbackUrl: z.string().optional(),
  clientRequestId: z.string().min(1),
  rows: z.array(inputRowSchema),
})
export type RunRowsBody = z.infer<typeof runRowsBodySchema>

export const uploadBodySchema = z.object({
  content: z.string(),
  contentType: z.string().min(1),
  filename: z.string().min(1),
})
