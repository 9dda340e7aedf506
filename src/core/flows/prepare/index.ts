// Preparing a run, for the front doors: known templates, a target's schema and input workbook,
// and the offline check of a filled workbook.
export { knownTemplates } from './templates'
export { targetSchema, inputWorkbookName, writeInputWorkbook } from './target-schema'
export { checkWorkbook } from './check-workbook'
