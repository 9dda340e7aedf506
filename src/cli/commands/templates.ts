/**
 * `templates list`, `templates schema`, `templates show` and `templates workbook` as --help and
 * completion read them (name, usage, options). What they do is in actions/templates.ts, loaded
 * only when one of them runs.
 */
import { commandGroup, one } from '../command'
import { OUTPUT, VALUE, SWITCH } from '../flags'

export const { templatesList, templatesSchema, templatesShow, templatesWorkbook } = commandGroup(
  () => import('../actions/templates'),
  {
    templatesList: {
      name: 'templates list',
      summary:
        'List the templates and listings known here: the sandbox’s own, those in your runs, your own listings, those sent from this computer.',
      usage: 'templates list [--base-url URL | --env NAME] [--json]',
    },

    templatesSchema: {
      name: 'templates schema',
      summary: "Show an official template's input schema (kept on this computer for offline use).",
      usage: 'templates schema ID [--offline]',
      options: { offline: SWITCH },
      positionals: one('a template ID'),
    },

    templatesShow: {
      name: 'templates show',
      summary: 'Show one of your private templates with its versions.',
      usage: 'templates show ID',
      positionals: one('a template ID'),
    },

    templatesWorkbook: {
      name: 'templates workbook',
      summary:
        'Write an input workbook for an official template, or a marketplace listing (--listing): columns, hints, dropdowns, instructions.',
      usage: 'templates workbook (ID | --listing ID [--version VID]) -o FILE.xlsx',
      options: {
        output: OUTPUT,
        listing: VALUE,
        version: VALUE,
      },
      positionals: { min: 0, max: 1, names: 'a template ID' },
    },
  },
)
