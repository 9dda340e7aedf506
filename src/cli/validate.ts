/**
 * `validate`: a workbook checked offline against an official template (with an optional
 * annotated copy), or on the service against a listing's version. A template of the built-in
 * Sandbox whose schema it gave since this program was installed, the usual case, is checked with
 * only the history open (core/flows/prepare/saved-check.ts); anything else loads the engine
 * (actions/validate.ts).
 */
import type { OfflineCheck } from '../core/flows/prepare/check-against'
import { checkOnSavedSchema } from '../core/flows/prepare/saved-check'
import { openDataFolder, resolveHome } from '../core/storage/home'
import type { ColumnMap } from '../core/workbooks'
import { misuse, stringOption } from './command'
import type { CommandContext, Declared, ParsedArgs } from './command'
import { EXIT, UsageError } from './errors'
import { mappingOption } from './column-mapping'
import { programWrittenAtMs } from './program-time'
import { describeValidation, reportTemplateCheck, templateCheckOptions } from './template-check'

export async function validate(ctx: CommandContext, args: ParsedArgs, self: Declared) {
  const templateId = stringOption(args, 'template')
  const listingId = stringOption(args, 'listing')
  if (Boolean(templateId) === Boolean(listingId))
    throw misuse(self, 'give either --template ID or --listing ID --version VID.')
  const mapping = await mappingOption(args)
  if (mapping && listingId)
    throw new UsageError(
      '--map works with --template (offline validation): the service checks a listing against its own headers.',
      'Rename the columns to the listing’s headers, or validate against a template.',
    )
  const onSaved =
    templateId && !ctx.global.baseUrl ? await checkOnSaved(ctx, args, templateId, mapping) : null
  const { validation, annotateFailed } = onSaved
    ? await reportTemplateCheck(ctx, args, onSaved)
    : await (await import('./actions/validate')).validateWithEngine(ctx, args, self, mapping)
  ctx.out.result(validation, () => describeValidation(validation))
  // An invalid workbook says so first; a valid one whose copy failed still did not finish.
  return validation.valid ? (annotateFailed ? EXIT.other : EXIT.ok) : EXIT.no
}

/** The check on the built-in Sandbox's saved schema; null when it needs the engine. */
async function checkOnSaved(
  ctx: CommandContext,
  args: ParsedArgs,
  templateId: string,
  mapping: ColumnMap | undefined,
): Promise<OfflineCheck | null> {
  const home = resolveHome(ctx.env)
  await openDataFolder(home)
  return checkOnSavedSchema({
    home,
    envName: ctx.global.env,
    templateId,
    programSinceMs: programWrittenAtMs(),
    path: args.positionals[0]!,
    options: templateCheckOptions(ctx, args, mapping),
  })
}
