/** `templates list`, `templates schema`, `templates show` and `templates workbook`. */
import type { CatalogSource } from '../../shared/bridge'
import type { OfficialTemplateSchema, PrivateTemplate } from '../../shared/contract'
import { resolve } from 'node:path'
import { describeAge } from '../../shared/format/time'
import { generateInputWorkbook } from '../../core/workbooks'
import type { ApiClient } from '../../core/service'
import { EngineError } from '../../core/errors'
import { knownCatalog } from '../../core/flows/catalog'
import { buyerListing } from '../../core/flows/listings/buyer-listing'
import {
  misuse,
  outputOption,
  showOne,
  stringOption,
  type CommandContext,
  type ParsedArgs,
  type RunCommand,
  type Declared,
} from '../command'
import { UsageError } from '../errors'
import { table } from '../output'
import { localTime } from '../time'

/** Where an entry was found, as the list says it. */
const SOURCE_WORDS: Record<CatalogSource, string> = {
  runs: 'your runs',
  'this-computer': 'sent from here',
  'own-listing': 'your listing',
  sandbox: 'sandbox',
  'saved-schema': 'saved here',
}

export async function templatesList(ctx: CommandContext) {
  const { engine, connection } = await ctx.session()
  const { items, offline } = await knownCatalog(engine, connection, ctx.signal)
  if (offline) ctx.out.note('The service could not be reached; listing what this computer knows.')
  const json = {
    items: items.map((e) => ({
      kind: e.kind,
      id: e.id,
      name: e.name,
      ...(e.versionId ? { versionId: e.versionId } : {}),
      source: e.source,
      ...(e.lastUsedAtUnix ? { lastUsedAtUnix: e.lastUsedAtUnix } : {}),
    })),
  }
  ctx.out.result(json, () =>
    items.length === 0
      ? 'No templates or listings known here yet. Use one by its id: `templates schema ID`, or `execute FILE --listing ID --version VID`.'
      : table(
          ['KIND', 'NAME', 'ID', 'VERSION', 'LAST USED', 'FOUND IN'],
          items.map((e) => [
            e.kind,
            e.name,
            e.id,
            e.versionId ?? '',
            localTime(e.lastUsedAtUnix ?? 0),
            SOURCE_WORDS[e.source],
          ]),
        ),
  )
}

export async function templatesSchema(ctx: CommandContext, args: ParsedArgs) {
  const { engine, connection } = await ctx.session()
  const cached = await engine.schemas.template(connection, args.positionals[0]!, {
    signal: ctx.signal,
    offline: args.values.offline === true,
  })
  if (cached.fromCache) {
    ctx.out.note(
      `The service could not be reached; showing the copy saved ${describeAge(cached.fetchedAtMs)}.`,
    )
  }
  ctx.out.result(cached.schema, () => describeSchema(cached.schema))
}

function describeSchema(schema: OfficialTemplateSchema): string {
  const fields = new Map(schema.fields.map((f) => [f.key, f]))
  const ordered = [...schema.columns].sort((a, b) => a.order - b.order)
  const rows = ordered.map((c) => {
    const f = fields.get(c.fieldKey)
    return [
      c.headerLabel || c.fieldKey,
      c.fieldKey,
      `${f?.type ?? '?'}${f?.multiValue ? ' (list)' : ''}`,
      f?.required ? 'yes' : '',
      f?.scope === 'run' ? 'whole run' : 'row',
      f?.enumValues.length ? f.enumValues.join(' | ') : (f?.inputHint ?? ''),
    ]
  })
  return [
    `${schema.name} (${schema.templateId}, version ${schema.version || '-'})`,
    ...(schema.description ? [schema.description] : []),
    '',
    table(['COLUMN', 'KEY', 'TYPE', 'REQUIRED', 'SCOPE', 'VALUES / HINT'], rows),
  ].join('\n')
}

export const templatesShow: RunCommand = (ctx, args) =>
  showOne(ctx, args, (client, id, options) => client.privateTemplate(id, options), describeTemplate)

function describeTemplate(t: PrivateTemplate): string {
  return [
    `${t.name} (${t.templateId}), ${t.status}`,
    ...(t.description ? [t.description] : []),
    `latest version: ${t.latestVersionId || '-'}, published: ${t.publishedVersionId || '-'}`,
    '',
    table(
      ['VERSION', 'NUMBER', 'SPEC', 'CREATED'],
      t.versions.map((v) => [
        v.versionId,
        String(v.versionNumber),
        v.specVersion,
        localTime(v.createdAtUnix),
      ]),
    ),
  ].join('\n')
}

export async function templatesWorkbook(ctx: CommandContext, args: ParsedArgs, self: Declared) {
  const listingId = stringOption(args, 'listing')
  const templateId = args.positionals[0]
  if (Boolean(listingId) === Boolean(templateId))
    throw misuse(self, 'give either a template ID or --listing ID.')
  if (stringOption(args, 'version') && !listingId)
    throw new UsageError('--version goes with --listing.')
  const output = outputOption(args, self, 'xlsx')
  const { engine, connection } = await ctx.session()
  let schema: OfficialTemplateSchema
  if (listingId) {
    schema = await listingAsTemplate(
      connection.client,
      listingId,
      stringOption(args, 'version'),
      connection.unitLabel,
      ctx.signal,
    )
  } else {
    const cached = await engine.schemas.template(connection, templateId!, {
      signal: ctx.signal,
    })
    if (cached.fromCache)
      ctx.out.note(`working offline with the copy saved ${describeAge(cached.fetchedAtMs)}`)
    schema = cached.schema
  }
  const path = resolve(output)
  await generateInputWorkbook(schema, path)
  ctx.out.result({ path }, () => `wrote ${path}`)
}

/** A listing's input schema (the buyer's view) in the shape the workbook generator takes. */
async function listingAsTemplate(
  client: ApiClient,
  listingId: string,
  version: string | undefined,
  unitLabel: string,
  signal: AbortSignal,
): Promise<OfficialTemplateSchema> {
  const listing = await buyerListing(client, listingId, signal)
  if (!listing.schema) {
    throw new EngineError(
      'not-found',
      `The service does not show the input schema of “${listingId}” to your account, so no workbook can be made for it.`,
      'Ask the listing’s creator for a workbook, or check the listing ID.',
    )
  }
  if (version && listing.listingVersionId && version !== listing.listingVersionId) {
    throw new EngineError(
      'conflict',
      `“${listingId}” is at version ${listing.listingVersionId}, not ${version}.`,
      `Make the workbook for the current version: --version ${listing.listingVersionId} (or leave --version out).`,
    )
  }
  return {
    templateId: listing.listingId,
    name: listing.displayName || listing.listingId,
    description: listing.description,
    scenario: '',
    version: listing.listingVersionId,
    inputSummary: '',
    outputType: '',
    instructions: [
      listing.taskFixedFeeT === null
        ? 'Each row is one task; the fee per task is shown when you execute.'
        : `Each row is one task, charged ${listing.taskFixedFeeT} ${unitLabel} when executed.`,
    ],
    columns: listing.schema.columns,
    fields: listing.schema.fields,
    sampleRows: [],
  }
}
