/**
 * `templates list`, `templates schema`, `templates show` and `templates workbook` as --help and
 * completion read them (name, usage, options). What they do is in actions/templates.ts, loaded
 * only when one of them runs.
 */
import { runFrom, type Command } from '../command'

const actions = () => import('../actions/templates')

export const templatesList: Command = {
  name: 'templates list',
  summary:
    'List the templates and listings known here: the sandbox’s own, those in your runs, your own listings, those sent from this computer.',
  usage: 'templates list [--base-url URL | --env NAME] [--json]',
  run: runFrom(actions, 'templatesList'),
}

export const templatesSchema: Command = {
  name: 'templates schema',
  summary: "Show an official template's input schema (kept on this computer for offline use).",
  usage: 'templates schema ID [--offline]',
  options: { offline: { type: 'boolean' } },
  positionals: { min: 1, max: 1, names: 'a template ID' },
  run: runFrom(actions, 'templatesSchema'),
}

export const templatesShow: Command = {
  name: 'templates show',
  summary: 'Show one of your private templates with its versions.',
  usage: 'templates show ID',
  positionals: { min: 1, max: 1, names: 'a template ID' },
  run: runFrom(actions, 'templatesShow'),
}

export const templatesWorkbook: Command = {
  name: 'templates workbook',
  summary:
    'Write an input workbook for an official template, or a marketplace listing (--listing): columns, hints, dropdowns, instructions.',
  usage: 'templates workbook (ID | --listing ID [--version VID]) -o FILE.xlsx',
  options: {
    output: { type: 'string', short: 'o' },
    listing: { type: 'string' },
    version: { type: 'string' },
  },
  positionals: { min: 0, max: 1, names: 'a template ID' },
  run: runFrom(actions, 'templatesWorkbook'),
}
