/**
 * What `validate` says of a check against a template, with or without the engine: the result,
 * the notes on stderr, the --annotate copy; and how it reads the workbook.
 */
import { resolve } from 'node:path'
import { EngineError } from '../core/errors'
import type { OfflineCheck } from '../core/flows/prepare/check-against'
import {
  annotateWorkbook,
  SMALL_CSV_BYTES,
  type ColumnMap,
  type MappingOutcome,
} from '../core/workbooks'
import type { WorkbookValidation } from '../shared/contract'
import { describeAge } from '../shared/format/time'
import { stringOption, type CommandContext, type ParsedArgs } from './command'
import { reportMapping } from './column-mapping'
import { noteWhatWasRead, rowsReadProgress } from './workbook-reader'

/** A validation result in words: valid, or its problems (the first 50 of them). */
export function describeValidation(v: WorkbookValidation): string {
  if (v.valid) return 'The workbook is valid.'
  const lines = [...v.fileErrors.map((e) => `file: ${e}`), ...v.rowErrors.map((e) => e.error)]
  const shown = lines.slice(0, 50)
  if (lines.length > shown.length)
    shown.push(`... and ${lines.length - shown.length} more problems`)
  return `The workbook has ${lines.length} problem${lines.length === 1 ? '' : 's'}:\n${shown.map((l) => `  ${l}`).join('\n')}`
}

export interface ValidateOutcome {
  validation: WorkbookValidation
  /** The --annotate copy was asked for and could not be written. */
  annotateFailed: boolean
}

/** How the command line reads a workbook it checks against a template. */
export function templateCheckOptions(
  ctx: CommandContext,
  args: ParsedArgs,
  mapping: ColumnMap | undefined,
) {
  return {
    mapping,
    keepCells: false,
    checkFiles: true,
    sheet: stringOption(args, 'sheet'),
    signal: ctx.signal,
    // No window to freeze here: a small csv is read at once, without starting a worker.
    onThisThreadUpToBytes: SMALL_CSV_BYTES,
    onProgress: rowsReadProgress(ctx),
  }
}

/** What an offline check against a template found, said; and the --annotate copy written. */
export async function reportTemplateCheck(
  ctx: CommandContext,
  args: ParsedArgs,
  { found, result: parsed }: OfflineCheck,
): Promise<ValidateOutcome> {
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
  const written = await writeAnnotatedCopy(ctx, args.positionals[0]!, parsed, annotatePath)
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
