/**
 * `validate` with the engine: against a template whose schema is asked for (or read from the
 * history of another environment), or on the service against a listing's version. The usual
 * check, on the built-in Sandbox's saved schema, is answered before the engine (../validate.ts).
 */
import type { Connection } from '../../core/engine'
import { checkWorkbook } from '../../core/flows/prepare'
import type { ColumnMap } from '../../core/workbooks'
import { misuse, stringOption } from '../command'
import type { CommandContext, Declared, ParsedArgs } from '../command'
import { UsageError } from '../errors'
import { reportTemplateCheck, templateCheckOptions, type ValidateOutcome } from '../template-check'
import { flowHooks } from './flow-hooks'

export async function validateWithEngine(
  ctx: CommandContext,
  args: ParsedArgs,
  self: Declared,
  mapping: ColumnMap | undefined,
): Promise<ValidateOutcome> {
  const connection = await ctx.connect()
  const templateId = stringOption(args, 'template')
  if (!templateId) return validateAgainstListing(ctx, connection, args, self)
  const engine = await ctx.engine()
  const check = await checkWorkbook(engine, connection, args.positionals[0]!, {
    ...templateCheckOptions(ctx, args, mapping),
    target: { kind: 'template', templateId },
  })
  return reportTemplateCheck(ctx, args, check)
}

/** On the service: its validateWorkbook for the listing's version. */
async function validateAgainstListing(
  ctx: CommandContext,
  connection: Connection,
  args: ParsedArgs,
  self: Declared,
): Promise<ValidateOutcome> {
  const versionId = stringOption(args, 'version')
  if (!versionId) throw misuse(self, '--listing needs --version VID.')
  if (stringOption(args, 'annotate'))
    throw new UsageError(
      '--annotate works with --template (offline validation), where every problem has its cell.',
      'Validate against the listing without --annotate; the problems are listed with their rows.',
    )
  // The spending flows (plans, costs, the journal) load only here: a check against a template,
  // the usual validate, never needs them.
  const { validateOnServer } = await import('../../core/flows/spend')
  const file = args.positionals[0]!
  const listingId = stringOption(args, 'listing')!
  const validation = await validateOnServer(connection, file, listingId, versionId, flowHooks(ctx))
  return { validation, annotateFailed: false }
}
