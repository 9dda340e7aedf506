/**
 * A comparison of two runs as a workbook: one line per output of each matched row (one line
 * for a row without outputs), with both statuses, the difference in words, cost and time. Written
 * with exceljs's streaming writer to a temporary name that is renamed when complete.
 */
import { dirname, resolve } from 'node:path'
import type { CompareOutput, CompareRow, ComparisonView } from '../../../shared/bridge'
import { formatBytes } from '../../../shared/format/bytes'
import { ensureFolder } from '../../files/folders'
import { safeFileName } from '../../files/safe-names'
import { checkWritableFolder, writeWorkbookFile } from '../../workbooks'

const HEADERS = [
  'Row in A',
  'Row in B',
  'Matched by',
  'Inputs',
  'Status in A',
  'Status in B',
  'Differs',
  'Output',
  'Kind',
  'In A',
  'In B',
  'Difference',
  'Cost in A',
  'Cost in B',
  'Ready in A after (s)',
  'Ready in B after (s)',
]

/** The comparison's workbook in the outputs folder: "<run A> vs <run B>.xlsx". */
export function comparisonWorkbookName(runA: string, runB: string): string {
  return safeFileName(`${runA} vs ${runB}.xlsx`, 'comparison.xlsx')
}

/** The difference of one output in words a spreadsheet cell can hold. */
export function differenceText(output: CompareOutput): string {
  if (output.same) return 'same'
  if (!output.a) return 'only in B'
  if (!output.b) return 'only in A'
  if (output.kind === 'json')
    return output.fields
      .filter((f) => f.state !== 'same')
      .map((f) => `${f.path}: ${f.a ?? '(none)'} → ${f.b ?? '(none)'}`)
      .join('\n')
  if (output.kind === 'text')
    return output.words
      .map((w) =>
        w.op === 'same' ? w.text : w.op === 'removed' ? `[-${w.text}-]` : `{+${w.text}+}`,
      )
      .join('')
  return `${output.a.mimeType}, ${formatBytes(output.a.sizeBytes)} → ${output.b.mimeType}, ${formatBytes(output.b.sizeBytes)}`
}

function sideText(side: CompareOutput['a']): string {
  if (!side) return ''
  return (
    side.preview || `${side.mimeType}${side.sizeBytes === null ? '' : `, ${side.sizeBytes} bytes`}`
  )
}

/** Cells cut to what a cell may hold. */
const cell = (text: string) => (text.length > 32_000 ? `${text.slice(0, 32_000)}…` : text)

function linesOf(row: CompareRow): unknown[][] {
  const common = [
    row.a?.label ?? '',
    row.b?.label ?? '',
    row.matchedBy === 'alone' ? `only in ${row.a ? 'A' : 'B'}` : row.matchedBy,
    row.inputs ? cell(JSON.stringify(row.inputs)) : '',
    row.a?.status ?? '',
    row.b?.status ?? '',
    row.differs ? 'yes' : 'no',
  ]
  const tail = [
    row.a?.costT ?? '',
    row.b?.costT ?? '',
    row.a?.readyAfterSeconds ?? '',
    row.b?.readyAfterSeconds ?? '',
  ]
  if (row.outputs.length === 0) return [[...common, '', '', '', '', '', ...tail]]
  return row.outputs.map((o) => [
    ...common,
    o.portName,
    o.kind,
    cell(sideText(o.a)),
    cell(sideText(o.b)),
    cell(differenceText(o)),
    ...tail,
  ])
}

type WorkbookWriter = Parameters<Parameters<typeof writeWorkbookFile>[2]>[0]

/** The Comparison sheet, a row a difference, and the About sheet naming the two runs. */
function addSheets(writer: WorkbookWriter, view: ComparisonView) {
  const sheet = writer.addWorksheet('Comparison', {
    views: [{ state: 'frozen', ySplit: 1 }],
  })
  sheet.columns = HEADERS.map((header) => ({
    header,
    width: header === 'Difference' || header.startsWith('In ') ? 40 : 14,
  }))
  sheet.getRow(1).font = { bold: true }
  sheet.getRow(1).commit()
  for (const row of view.rows) for (const line of linesOf(row)) sheet.addRow(line).commit()
  sheet.commit()
  const about = writer.addWorksheet('About')
  about.addRow(['Run A', view.a.runId, view.a.name, view.a.status]).commit()
  about.addRow(['Run B', view.b.runId, view.b.name, view.b.status]).commit()
  about.addRow(['Rows that differ', view.differing]).commit()
  about.addRow(['Costs in', view.unitLabel]).commit()
  about.commit()
}

/** Writes the comparison to `outPath` (an .xlsx); answers the full path. */
export async function writeComparisonWorkbook(
  view: ComparisonView,
  outPath: string,
): Promise<string> {
  const path = resolve(outPath)
  await ensureFolder(dirname(path))
  await checkWritableFolder(path)
  await writeWorkbookFile(path, { useStyles: true }, (writer) => addSheets(writer, view))
  return path
}
