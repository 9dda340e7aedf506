/**
 * The results workbook of a run: one line per submitted row with its input values, the task's
 * status and error, and each output side by side: short text inline, files (and text too long
 * for a cell) as links to the downloaded copy next to the workbook. A second sheet describes
 * the run. Written with exceljs's streaming writer (large runs stay cheap), to a temporary name
 * that is renamed when complete.
 */
import { rename, rm } from 'node:fs/promises'
import { basename, dirname, relative, resolve, sep } from 'node:path'
import type ExcelJS from 'exceljs'
import type { Artifact, InputRow, RunDetail } from '../shared/contract'
import { runCostText, statusLabel, statusTone } from '../shared/format'
import { downloadRun, type DownloadOptions, type RunDownload } from './downloads'
import type { Connection } from './engine'
import type { Db } from './history/db'
import { readCachedSchema } from './schema-cache'
import { checkWritableFolder, streamingWorkbook } from './workbooks/writer'
import type { Submissions } from './submissions'

/** Excel keeps at most 32,767 characters in a cell; longer text is linked instead. */
const CELL_TEXT_MAX = 32_000

export interface ResultsWorkbook {
  path: string
  /** Where the outputs were downloaded (the links point there). */
  folder: string
  rows: number
  download: RunDownload
}

function cellValue(value: unknown): ExcelJS.CellValue {
  if (value === null || value === undefined) return null
  if (Array.isArray(value)) return value.map((v) => String(cellValue(v) ?? '')).join('; ')
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>
    if (typeof v.inputAssetId === 'string') return `asset ${v.inputAssetId}`
    if (typeof v.localPath === 'string') return basename(v.localPath)
    return JSON.stringify(value)
  }
  return value as string | number | boolean
}

/** A link Excel and LibreOffice open relative to the workbook's folder. */
function fileLink(workbookDir: string, path: string): { text: string; hyperlink: string } {
  const rel = relative(workbookDir, path).split(sep).join('/')
  return { text: basename(path), hyperlink: encodeURI(rel) }
}

export async function writeResultsWorkbook(
  db: Db,
  submissions: Submissions,
  connection: Connection,
  runId: string,
  outPath: string,
  options: DownloadOptions = {},
): Promise<ResultsWorkbook> {
  const path = resolve(outPath)
  const workbookDir = dirname(path)
  await checkWritableFolder(path)
  const detail: RunDetail = await connection.client.run(runId, { signal: options.signal })
  // Every output goes to disk first, so that links work and long text is never cut.
  const download = await downloadRun(db, connection, detail, workbookDir, options)
  const saved = new Map(download.files.map((f) => [f.artifactId, f.path]))
  const failedDownloads = new Map(download.failed.map((f) => [f.artifactId, f.error]))
  const submission = submissions.byRun(connection.key, runId)

  const tasksByRow = new Map(detail.tasks.map((t) => [t.sourceRowIndex, t]))
  const artifactsByRow = new Map<number, Artifact[]>()
  const ports: string[] = []
  for (const artifact of detail.artifacts) {
    const port = artifact.portName || 'output'
    if (!ports.includes(port)) ports.push(port)
    const list = artifactsByRow.get(artifact.sourceRowIndex) ?? []
    list.push(artifact)
    artifactsByRow.set(artifact.sourceRowIndex, list)
  }
  const inputRows: InputRow[] = submission?.rows ?? []
  // Column headers as the user knows them: the template's labels when its schema is saved here.
  const schema =
    submission?.targetKind === 'template'
      ? readCachedSchema(db, connection.key, submission.targetId)?.schema
      : undefined
  const labelOf = (key: string) => {
    const column = schema?.columns.find((c) => c.fieldKey === key)
    const field = schema?.fields.find((f) => f.key === key)
    return column?.headerLabel || field?.label || key
  }
  const inputKeys: string[] = []
  for (const row of inputRows)
    for (const key of Object.keys(row)) if (!inputKeys.includes(key)) inputKeys.push(key)
  const rowCount = Math.max(
    inputRows.length,
    detail.run.totalTasks,
    ...detail.tasks.map((t) => t.sourceRowIndex + 1),
    ...detail.artifacts.map((a) => a.sourceRowIndex + 1),
  )

  const temp = `${path}.${process.pid}.partial`
  try {
    const book = streamingWorkbook(temp, { useStyles: true, useSharedStrings: false })
    const writer = book.writer
    const sheet = writer.addWorksheet('Results', { views: [{ state: 'frozen', ySplit: 1 }] })
    sheet.columns = [
      { header: submission ? 'Sheet row' : 'Row', width: 10 },
      ...inputKeys.map((key) => ({ header: labelOf(key), width: 24 })),
      { header: 'Task status', width: 14 },
      { header: 'Error', width: 40 },
      ...ports.map((port) => ({ header: port, width: 50 })),
    ]
    sheet.getRow(1).font = { bold: true }
    for (let index = 0; index < rowCount; index += 1) {
      const task = tasksByRow.get(index)
      const input = inputRows[index] ?? {}
      const outputs = ports.map((port) => {
        const mine = (artifactsByRow.get(index) ?? []).filter(
          (a) => (a.portName || 'output') === port,
        )
        if (mine.length === 0) return null
        const artifact = mine[0]!
        const file = saved.get(artifact.artifactId)
        const more = mine.length > 1 ? ` (+${mine.length - 1} more in the row's folder)` : ''
        if (artifact.inlineText && artifact.inlineText.length <= CELL_TEXT_MAX && !more)
          return artifact.inlineText
        if (file) {
          const link = fileLink(workbookDir, file)
          return { ...link, text: link.text + more }
        }
        return `not downloaded: ${failedDownloads.get(artifact.artifactId) ?? 'unknown error'}`
      })
      const row = sheet.addRow([
        submission ? (submission.rowNumbers[index] ?? index + 1) : index + 1,
        ...inputKeys.map((key) => cellValue(input[key])),
        task ? statusLabel(task.status) : 'no task',
        task?.errorMessage || null,
        ...outputs,
      ])
      if (task && statusTone(task.status) === 'bad') {
        row.getCell(inputKeys.length + 2).font = { color: { argb: 'FF9C0006' }, bold: true }
      }
      outputs.forEach((value, i) => {
        if (value && typeof value === 'object') {
          row.getCell(inputKeys.length + 4 + i).font = {
            color: { argb: 'FF0563C1' },
            underline: true,
          }
        }
      })
      row.commit()
    }
    sheet.commit()

    const about = writer.addWorksheet('Run')
    about.columns = [
      { header: 'Run', width: 24 },
      { header: detail.run.runId, width: 70 },
    ]
    about.getRow(1).font = { bold: true }
    const run = detail.run
    const lines: [string, ExcelJS.CellValue][] = [
      ['Name', run.displayName || run.templateName || run.templateKey],
      ['Status', statusLabel(run.status)],
      ['Template or listing', submission?.targetId || run.templateKey || run.templateName],
      ['Input file', submission?.inputFilename || run.inputFilename],
      [
        'Tasks',
        `${run.completedTasks} done, ${run.failedTasks} failed, ${run.cancelledTasks} cancelled of ${run.totalTasks}`,
      ],
      ['Cost', runCostText(run, connection.unitLabel)],
      ['Created', run.createdAtUnix ? new Date(run.createdAtUnix * 1000) : null],
      ['Completed', run.completedAtUnix ? new Date(run.completedAtUnix * 1000) : null],
      ['Environment', `${connection.name} (${connection.origin})`],
      ['Outputs folder', relative(workbookDir, download.folder) || '.'],
      ['Retry of run', submission?.retryOfRunId || null],
      ['First error', run.firstErrorMessage || null],
    ]
    for (const [label, value] of lines) {
      const row = about.addRow([label, value])
      if (value instanceof Date) row.getCell(2).numFmt = 'yyyy-mm-dd hh:mm'
      row.commit()
    }
    about.commit()
    await book.commit()
    await rename(temp, path)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
  return { path, folder: download.folder, rows: rowCount, download }
}
