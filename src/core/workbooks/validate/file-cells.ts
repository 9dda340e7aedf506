/**
 * File cells: a path on this computer must name a file (relative to the workbook's folder, or
 * absolute), or, for a workbook a page sent, one of the files uploaded with it; either way of a
 * kind the field takes. Each path is looked at once, however many rows name it.
 */
import { statSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import type { SchemaField } from '../../../shared/contract'
import { cellMessage, type WireValue } from '../../../shared/input-schema'
import { mimeTypeOf } from '../../files/mime'

/** Reports a problem with a cell: the row's index and number, the field, the message. */
export type ReportProblem = (
  rowIndex: number,
  rowNumber: number,
  field: SchemaField,
  error: string,
) => void

function mimeMatches(accepted: string, actual: string): boolean {
  const a = accepted.toLowerCase().trim()
  if (a === '*/*' || a === actual) return true
  if (a.endsWith('/*')) return actual.startsWith(a.slice(0, -1))
  return false
}

/** How a file cell's text is matched to an upload: slashes either way, no leading "./". */
function cellPathKey(text: string): string {
  return text
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
}

/** The file cells of one read: what each path turned out to be, kept for the read. */
export class FileCells {
  /** A path -> its problem, or null when it is a file. */
  private readonly seen = new Map<string, string | null>()
  private readonly uploads: Map<string, string> | null

  constructor(
    /** Whether paths on this computer are looked at (false on the server). */
    private readonly checkFiles: boolean,
    /** The folder a relative path starts from. */
    private readonly baseDir: string,
    fileAssets: Record<string, string> | undefined,
    private readonly problem: ReportProblem,
  ) {
    this.uploads = fileAssets
      ? new Map(Object.entries(fileAssets).map(([k, v]) => [cellPathKey(k), v]))
      : null
  }

  /** A file cell's value as sent on (a checked path, or an upload's id); undefined if bad. */
  check(
    field: SchemaField,
    value: WireValue,
    rowNumber: number,
    rowIndex: number,
  ): WireValue | undefined {
    if (Array.isArray(value)) {
      const items = value.map((v) => this.check(field, v, rowNumber, rowIndex))
      return items.every((v) => v !== undefined) ? (items as WireValue[]) : undefined
    }
    if (typeof value !== 'object' || !('localPath' in value)) return value
    if (this.uploads) return this.uploadedFile(field, value.localPath, rowNumber, rowIndex)
    if (!this.checkFiles) return value
    const path = isAbsolute(value.localPath)
      ? value.localPath
      : resolve(this.baseDir, value.localPath)
    if (!this.seen.has(path)) {
      let problem: string | null = null
      try {
        if (!statSync(path).isFile()) problem = `'${value.localPath}' is a folder, not a file`
      } catch {
        problem = `the file '${value.localPath}' was not found (paths are relative to the workbook's folder)`
      }
      this.seen.set(path, problem)
    }
    const missing = this.seen.get(path)
    if (missing) {
      this.cellProblem(field, rowNumber, rowIndex, missing)
      return undefined
    }
    if (!this.kindAccepted(field, path, value.localPath, rowNumber, rowIndex)) return undefined
    return { localPath: path }
  }

  /** A file cell of a workbook a page sent: the upload it names, never a path on this machine. */
  private uploadedFile(
    field: SchemaField,
    text: string,
    rowNumber: number,
    rowIndex: number,
  ): WireValue | undefined {
    const inputAssetId = this.uploads?.get(cellPathKey(text))
    if (!inputAssetId) {
      this.cellProblem(
        field,
        rowNumber,
        rowIndex,
        `the file '${text}' was not uploaded: drop the folder that holds it and upload the files, then send again`,
      )
      return undefined
    }
    if (!this.kindAccepted(field, text, text, rowNumber, rowIndex)) return undefined
    return { inputAssetId }
  }

  /** Whether the field takes a file of this kind (by its name); says so in the row when not. */
  private kindAccepted(
    field: SchemaField,
    path: string,
    shown: string,
    rowNumber: number,
    rowIndex: number,
  ): boolean {
    const mime = mimeTypeOf(path)
    if (
      !field.acceptedMimeTypes.length ||
      field.acceptedMimeTypes.some((m) => mimeMatches(m, mime))
    )
      return true
    this.cellProblem(
      field,
      rowNumber,
      rowIndex,
      `'${shown}' is ${mime}, but this field takes ${field.acceptedMimeTypes.join(', ')}`,
    )
    return false
  }

  /** Reports what is wrong with a cell, said as the row's message about that field. */
  private cellProblem(field: SchemaField, rowNumber: number, rowIndex: number, words: string) {
    this.problem(rowIndex, rowNumber, field, cellMessage(rowNumber, field, words))
  }
}
