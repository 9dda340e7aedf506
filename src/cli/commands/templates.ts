/** `templates schema` and `templates show`. */
import type { OfficialTemplateSchema, PrivateTemplate } from '../../shared/contract'
import { resolve } from 'node:path'
import { describeAge, templateSchema } from '../../core/schema-cache'
import { generateInputWorkbook } from '../../core/workbooks'
import { outputOption, type Command } from '../command'
import { table } from '../output'

export const templatesSchema: Command = {
  name: 'templates schema',
  summary: "Show an official template's input schema (kept on this computer for offline use).",
  usage: 'templates schema ID [--offline]',
  options: { offline: { type: 'boolean' } },
  positionals: { min: 1, max: 1, names: 'a template ID' },
  async run(ctx, args) {
    const engine = await ctx.engine()
    const connection = await ctx.connect()
    const cached = await templateSchema(engine.db, connection, args.positionals[0]!, {
      signal: ctx.signal,
      offline: args.values.offline === true,
    })
    if (cached.fromCache) {
      ctx.out.note(
        `The service could not be reached; showing the copy saved ${describeAge(cached.fetchedAtMs)}.`,
      )
    }
    ctx.out.result(cached.schema, () => describeSchema(cached.schema))
  },
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

export const templatesShow: Command = {
  name: 'templates show',
  summary: 'Show one of your private templates with its versions.',
  usage: 'templates show ID',
  positionals: { min: 1, max: 1, names: 'a template ID' },
  async run(ctx, args) {
    const connection = await ctx.connect()
    const template = await connection.client.privateTemplate(args.positionals[0]!, {
      signal: ctx.signal,
    })
    ctx.out.result(template, () => describeTemplate(template))
  },
}

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
        isoOf(v.createdAtUnix),
      ]),
    ),
  ].join('\n')
}

export function isoOf(unix: number): string {
  return unix > 0 ? new Date(unix * 1000).toISOString().replace('.000Z', 'Z') : '-'
}

export const templatesWorkbook: Command = {
  name: 'templates workbook',
  summary:
    'Write an input workbook for an official template: columns, hints, dropdowns, instructions, samples.',
  usage: 'templates workbook ID -o FILE.xlsx',
  options: { output: { type: 'string', short: 'o' } },
  positionals: { min: 1, max: 1, names: 'a template ID' },
  async run(ctx, args) {
    const output = outputOption(args, templatesWorkbook, 'xlsx')
    const engine = await ctx.engine()
    const connection = await ctx.connect()
    const cached = await templateSchema(engine.db, connection, args.positionals[0]!, {
      signal: ctx.signal,
    })
    if (cached.fromCache)
      ctx.out.note(`working offline with the copy saved ${describeAge(cached.fetchedAtMs)}`)
    const path = resolve(output)
    await generateInputWorkbook(cached.schema, path)
    ctx.out.result({ path }, () => `wrote ${path}`)
  },
}
