/**
 * `--map` and `--map-file` on validate, run and execute: the user's column mapping read from
 * the command line, and what the read found about the columns said on stderr (a remembered
 * mapping used, or the proposal printed with the exact --map that confirms it).
 */
import { readFile } from 'node:fs/promises'
import { EngineError } from '../core/errors'
import {
  columnLetter,
  columnMapFromJson,
  parseMapText,
  type ColumnMap,
  type MappingOutcome,
} from '../core/workbooks'
import { atMostOne, stringOption, type CommandContext, type ParsedArgs } from './command'
import type { ReadSheet } from '../core/flows/spend/set-aside'
import { UsageError } from './errors'

/** The mapping --map or --map-file gives, or undefined. */
export async function mappingOption(args: ParsedArgs): Promise<ColumnMap | undefined> {
  const text = stringOption(args, 'map')
  const file = stringOption(args, 'map-file')
  atMostOne(undefined, { '--map': text, '--map-file': file })
  try {
    if (text !== undefined) return parseMapText(text)
  } catch (error) {
    throw new UsageError(
      `--map: ${(error as Error).message}.`,
      'Example: --map "Message text=message,Notes="',
    )
  }
  if (file === undefined) return undefined
  const content = await readFile(file, 'utf8').catch(() => {
    throw new UsageError(`--map-file: cannot read ${file}.`, 'Check the path of the JSON file.')
  })
  try {
    return columnMapFromJson(JSON.parse(content))
  } catch (error) {
    throw new UsageError(
      `--map-file ${file}: ${(error as Error).message}.`,
      'Write it as { "Your column": "fieldKey", "Extra column": null }.',
    )
  }
}

/** A mapping as a --map argument, commas and "=" in headers escaped. */
export function mapArgument(map: ColumnMap): string {
  return Object.entries(map)
    .map(([column, key]) => `${column.replace(/([,=])/g, '\\$1')}=${key ?? ''}`)
    .join(',')
}

/** The proposal in words: one line a column, then what is missing and how to confirm it. */
function proposalLines(outcome: MappingOutcome): string[] {
  const proposal = outcome.proposal!
  const lines = [
    `The sheet's columns are not the template's own headers (header row ${outcome.headerRow}). Proposed mapping:`,
  ]
  for (const c of proposal.columns) {
    const to = c.fieldKey ?? 'not used'
    const sure = c.fieldKey ? ` (${Math.round(c.confidence * 100)}% sure)` : ''
    const seen = c.samples.filter((s) => s !== '').slice(0, 3)
    lines.push(`  ${c.header} -> ${to}${sure}${seen.length ? `   e.g. ${seen.join(' | ')}` : ''}`)
  }
  if (proposal.missingRequired.length)
    lines.push(`No column found for the required field(s): ${proposal.missingRequired.join(', ')}.`)
  if (proposal.ambiguous) lines.push('Some columns could fit more than one field: check them.')
  const map = Object.fromEntries(proposal.columns.map((c) => [c.header, c.fieldKey]))
  lines.push(`To use this mapping, run the command again with:\n  --map "${mapArgument(map)}"`)
  return lines
}

/** "column D “Cost centre”, column F “Notes”": the columns a given mapping leaves out. */
function leftOutWords(outcome: MappingOutcome): string {
  return outcome.leftOut
    .map((text) => `column ${columnLetter(outcome.headers.indexOf(text))} “${text}”`)
    .join(', ')
}

/**
 * Says on stderr how the columns were matched. A proposal (no mapping given or remembered)
 * stops the command: nothing is sent on a guess.
 */
export function reportMapping(ctx: CommandContext, outcome: MappingOutcome | undefined): void {
  if (!outcome || outcome.source === 'exact') return
  if (outcome.leftOut.length)
    ctx.out.note(
      `Not used: ${leftOutWords(outcome)} (the mapping does not name ${outcome.leftOut.length === 1 ? 'it' : 'them'}; name a column in --map to use it)`,
    )
  if (outcome.source === 'remembered')
    ctx.out.note(
      `using the column mapping remembered for these headers: ${mapArgument(outcome.applied)} (give --map to change it)`,
    )
  if (outcome.source !== 'proposed') return
  for (const line of proposalLines(outcome)) ctx.out.note(line)
}

/** The error a command stops with when the sheet needs a mapping the user has not confirmed. */
export function mappingNeeded(): EngineError {
  return new EngineError(
    'refused',
    "The sheet's columns do not all match the template's fields, so nothing was sent.",
    'Confirm the proposed mapping above (or give your own), then send again.',
  )
}

/**
 * The reader `run` and `execute` hand the engine (which applies --map or a remembered mapping):
 * how the columns were matched said on stderr; a sheet that only has a proposal stops the
 * command, since nothing is sent on a guess.
 */
export function mappingReported(ctx: CommandContext, read: ReadSheet): ReadSheet {
  return async (path, schema, more) => {
    const result = await read(path, schema, more)
    reportMapping(ctx, result.mapping)
    if (result.mapping?.source === 'proposed') throw mappingNeeded()
    return result
  }
}
