/**
 * Writing workbooks to disk safely: the folder is checked first (with a message that says what
 * to do), and a streaming writer's disk errors end its commit instead of leaving it waiting
 * forever (exceljs does not pass them on by itself).
 */
import { createWriteStream } from 'node:fs'
import { access, constants, rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type ExcelJS from 'exceljs'
import { EngineError } from '../../errors'
import { loadExcelJs } from '../load-exceljs'

/** Throws a clear error when the file's folder is missing or cannot be written to. */
export async function checkWritableFolder(path: string): Promise<void> {
  const folder = dirname(path)
  const info = await stat(folder).catch(() => null)
  if (!info || !info.isDirectory()) {
    throw new EngineError(
      'bad-input',
      `The folder “${folder}” does not exist.`,
      'Create it, or choose another place for the file.',
    )
  }
  try {
    await access(folder, constants.W_OK)
  } catch {
    throw new EngineError(
      'bad-input',
      `Skill Runner may not write into “${folder}”.`,
      'Choose a folder you may write to.',
    )
  }
}

export interface StreamingWorkbook {
  writer: ExcelJS.stream.xlsx.WorkbookWriter
  /** Commits the workbook; rejects when the disk refused any of it. */
  commit(): Promise<void>
  /** Rejects when the disk refuses the file (never resolves): what a wait on it races. */
  failed: Promise<never>
}

export async function streamingWorkbook(
  path: string,
  options: Omit<
    Partial<ExcelJS.stream.xlsx.WorkbookStreamWriterOptions>,
    'filename' | 'stream'
  > = {},
): Promise<StreamingWorkbook> {
  const excel = await loadExcelJs()
  const stream = createWriteStream(path)
  let failure: Error | null = null
  const failed = new Promise<never>((_, reject) =>
    stream.once('error', (error) => {
      failure = error
      reject(error)
    }),
  )
  failed.catch(() => {})
  const writer = new excel.stream.xlsx.WorkbookWriter({ ...options, stream })
  return {
    writer,
    failed,
    async commit() {
      if (failure) throw failure
      await Promise.race([writer.commit(), failed])
      // The zip is written; wait until the file is closed (or failed) too.
      if (!stream.closed)
        await Promise.race([new Promise<void>((r) => stream.once('close', () => r())), failed])
    },
  }
}

/**
 * Writes a workbook to `path` through a hidden partial file beside it, renamed into place once
 * whole: a reader never sees half a workbook, and a failed write leaves nothing behind.
 */
export async function writeWorkbookFile(
  path: string,
  options: Parameters<typeof streamingWorkbook>[1],
  fill: (
    writer: ExcelJS.stream.xlsx.WorkbookWriter,
    failed: Promise<never>,
  ) => void | Promise<void>,
): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.partial`)
  try {
    const book = await streamingWorkbook(temp, options)
    await fill(book.writer, book.failed)
    await book.commit()
    await rename(temp, path)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}
