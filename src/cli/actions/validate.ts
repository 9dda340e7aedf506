/**
 * `validate`: a workbook checked offline against an official template (with an optional
 * annotated copy), or on the service against a listing's version.
 */
import { resolve } from 'node:path'
import type { Connection } from '../../core/engine'
import { EngineError } from '../../core/errors'
import { checkWorkbook } from '../../core/flows/prepare'
import { describeAge } from '../../shared/format/time'
import {
  annotateWorkbook,
  SMALL_CSV_BYTES,
  type ColumnMap,
  type MappingOutcome,
} from '../../core/workbooks'
import type { WorkbookValidation } from '../../shared/contract'
import { misuse, stringOption } from '../command'
import type { CommandContext, Declared, ParsedArgs } from '../command'
import { EXIT, UsageError } from '../errors'
import { flowHooks } from './flow-hooks'
import { mappingOption, reportMapping } from '../column-mapping'
import { noteWhatWasRead, rowsReadProgress } from '../workbook-reader'

/** A validation result in words: valid, or its problems (the first 50 of them). */
export function describeValidation(v: WorkbookValidation): string {
  if (v.valid) return 'The workbook is valid.'
  const lines = [...v.fileErrors.map((e) => `file: ${e}`), ...v.rowErrors.map((e) => e.error)]
  const shown = lines.slice(0, 50)
  if (lines.length > shown.length)
    shown.push(`... and ${lines.length - shown.length} more problems`)
  return `The workbook has ${lines.length} problem${lines.length === 1 ? '' : 's'}:\n${shown.map((l) => `  ${l}`).join('\n')}`
}

export async function validate(ctx: CommandContext, args: ParsedArgs, self: Declared) {
  const file = args.positionals[0]!
  const templateId = stringOption(args, 'template')
  const listingId = stringOption(args, 'listing')
  const versionId = stringOption(args, 'version')
  if (Boolean(templateId) === Boolean(listingId))
    throw misuse(self, 'give either --template ID or --listing ID --version VID.')
  const mapping = await mappingOption(args)
  if (mapping && listingId)
    throw new UsageError(
      '--map works with --template (offline validation): the service checks a listing against its own headers.',
      'Rename the columns to the listing’s headers, or validate against a template.',
    )
  const connection = await ctx.connect()
  const { validation, annotateFailed } = templateId
    ? await validateAgainstTemplate(ctx, connection, file, templateId, args, mapping)
    : await validateAgainstListing(ctx, connection, file, listingId!, versionId, args, self)
  ctx.out.result(validation, () => describeValidation(validation))
  // An invalid workbook says so first; a valid one whose copy failed still did not finish.
  return validation.valid ? (annotateFailed ? EXIT.other : EXIT.ok) : EXIT.no
}

interface ValidateOutcome {
  validation: WorkbookValidation
  /** The --annotate copy was asked for and could not be written. */
  annotateFailed: boolean
}

/** Offline: the template's schema (fetched, or the saved copy) and the file cells on disk. */
async function validateAgainstTemplate(
  ctx: CommandContext,
  connection: Connection,
  file: string,
  templateId: string,
  args: ParsedArgs,
  mapping: ColumnMap | undefined,
): Promise<ValidateOutcome> {
  const engine = await ctx.engine()
  const { found, result: parsed } = await checkWorkbook(engine, connection, file, {
    mapping,
    target: { kind: 'template', templateId },
    keepCells: false,
    checkFiles: true,
    sheet: stringOption(args, 'sheet'),
    signal: ctx.signal,
    // No window to freeze here: a small csv is read at once, without starting a worker.
    onThisThreadUpToBytes: SMALL_CSV_BYTES,
    onProgress: rowsReadProgress(ctx),
  })
  ctx.out.endProgress()
  if (found?.fromCache && found.fetchedAtMs !== null)
    ctx.out.note(
      `working offline with the copy of the template saved ${describeAge(found.fetchedAtMs)}`,
    )
  reportMapping(ctx, parsed.mapping)
  const validation: WorkbookValidation = {
    valid: parsed.valid,
    fileErrors: parsed.fileErrors,
    rowErrors: parsed.rowErrors,
    ...mappingFields(parsed.mapping),
  }
  noteWhatWasRead(ctx, parsed)
  const annotatePath = stringOption(args, 'annotate')
  if (annotatePath && parsed.unreadable) {
    ctx.out.note(
      'no annotated copy: the file could not be read, so there are no cells to mark (the problem is below).',
    )
    return { validation, annotateFailed: false }
  }
  if (!annotatePath) return { validation, annotateFailed: false }
  const written = await writeAnnotatedCopy(ctx, file, parsed, annotatePath)
  return { validation, annotateFailed: !written }
}

/** The result's `mapping` (the one given or remembered), or `proposedMapping` when none is confirmed. */
function mappingFields(outcome: MappingOutcome | undefined) {
  // The template's own headers need no mapping: the result stays as it always was.
  if (!outcome || outcome.source === 'exact') return {}
  if (outcome.source !== 'proposed') return { mapping: outcome.applied }
  const proposal = outcome.proposal?.columns ?? []
  return { proposedMapping: Object.fromEntries(proposal.map((c) => [c.header, c.fieldKey])) }
}

/** Writes the --annotate copy; false (with a note) when it could not be written. */
async function writeAnnotatedCopy(
  ctx: CommandContext,
  file: string,
  parsed: Parameters<typeof annotateWorkbook>[1],
  annotatePath: string,
): Promise<boolean> {
  // The check itself is done: a copy that cannot be written must not lose its result.
  try {
    const annotated = await annotateWorkbook(file, parsed, resolve(annotatePath))
    ctx.out.note(
      `annotated copy: ${annotated.path} (${annotated.markedCells} cell${annotated.markedCells === 1 ? '' : 's'} marked; the Errors sheet lists every problem)`,
    )
    return true
  } catch (error) {
    if (ctx.signal.aborted) throw error
    const nextStep = error instanceof EngineError ? ` ${error.nextStep}` : ''
    ctx.out.note(
      `no annotated copy: it could not be written to ${resolve(annotatePath)}: ${error instanceof Error ? error.message : String(error)}${nextStep} (the validation result is below).`,
    )
    return false
  }
}

/** On the service: its validateWorkbook for the listing's version. */
async function validateAgainstListing(
  ctx: CommandContext,
  connection: Connection,
  file: string,
  listingId: string,
  versionId: string | undefined,
  args: ParsedArgs,
  self: Declared,
): Promise<ValidateOutcome> {
  if (!versionId) throw misuse(self, '--listing needs --version VID.')
  if (stringOption(args, 'annotate'))
    throw new UsageError(
      '--annotate works with --template (offline validation), where every problem has its cell.',
      'Validate against the listing without --annotate; the problems are listed with their rows.',
    )
  // The spending flows (plans, costs, the journal) load only here: a check against a template,
  // the usual validate, never needs them.
  const { validateOnServer } = await import('../../core/flows/spend')
  const validation = await validateOnServer(connection, file, listingId, versionId, flowHooks(ctx))
  return { validation, annotateFailed: false }
}
