/** `runs compare`: two runs side by side, rows matched by their inputs. */
import { resolve } from 'node:path'
import { compareRuns } from '../../core/flows/compare/compare-runs'
import { differenceText, writeComparisonWorkbook } from '../../core/flows/compare/compare-workbook'
import type { ComparisonView } from '../../shared/bridge'
import { comparisonCounts } from '../../shared/format/compare-words'
import {
  outputOption,
  stringOption,
  type ParsedArgs,
  type CommandContext,
  type Declared,
} from '../command'
import { EXIT } from '../errors'

/** The comparison in a few lines: rows in both and how many differ, then each row that does. */
function describeComparison(view: ComparisonView, path: string | undefined): string {
  const lines = [
    `${view.a.runId} (A) and ${view.b.runId} (B): ${comparisonCounts(view.rows)}`,
  ]
  if (!view.a.inputsKnown || !view.b.inputsKnown)
    lines.push('a run not sent from this computer has its rows matched by position only')
  for (const row of view.rows.filter((r) => r.differs)) {
    const name =
      row.a && row.b
        ? row.a.label === row.b.label
          ? row.a.label
          : `${row.a.label} / ${row.b.label}`
        : `${(row.a ?? row.b)!.label} only in ${row.a ? 'A' : 'B'}`
    const status =
      row.a && row.b && row.a.status !== row.b.status ? ` ${row.a.status} → ${row.b.status}` : ''
    lines.push(`  ${name}:${status}`)
    for (const output of row.outputs.filter((o) => !o.same))
      lines.push(
        `    ${output.portName}: ${differenceText(output).replace(/\n/g, '; ').slice(0, 200)}`,
      )
  }
  if (path) lines.push(`wrote ${path}`)
  return lines.join('\n')
}

export async function runsCompare(ctx: CommandContext, args: ParsedArgs, self: Declared) {
  const path = stringOption(args, 'output') ? resolve(outputOption(args, self, 'xlsx')) : undefined
  const { engine, connection } = await ctx.session()
  const [runA, runB] = args.positionals as [string, string]
  const view = await compareRuns(engine, connection, runA, runB, ctx.signal)
  const written = path ? await writeComparisonWorkbook(view, path) : undefined
  const answer = {
    rows: view.rows,
    differing: view.differing,
    ...(written ? { path: written } : {}),
  }
  ctx.out.result(answer, () => describeComparison(view, written))
  return EXIT.ok
}
