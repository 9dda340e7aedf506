// Preparing a run, for the front doors: known templates, a target's schema and input workbook,
// and the offline check of a filled workbook.
export { knownTemplates } from './templates'
export {
  targetSchema,
  inputWorkbookName,
  writeInputWorkbook,
  workbookTarget,
  type TargetSchema,
} from './target-schema'
export { checkWorkbook, type OfflineCheck } from './check-workbook'
export { Schemas, describeAge, type CachedSchema } from './schema-cache'
