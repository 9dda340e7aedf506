/**
 * What goes into a submission, step by step (plan-submission.ts and confirm.ts put them
 * together): the rows a workbook gives for a schema, the rows chosen, the local files named in
 * file cells uploaded in their place, and the service's own check of a listing's workbook.
 */
import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import { randomUUID } from 'node:crypto'
import { plural } from '../../../shared/format/amounts'
import type { InputRow, ListingInputSchema, WorkbookValidation } from '../../../shared/contract'
import type { Connection } from '../../environments/connection'
import { EngineError } from '../../errors'
import type { SetAsideTarget, SpilledRows } from '../../workbooks'
import type { UploadProgress, Uploads } from './uploads'
import type { PlanRows } from './plan-rows'
import { defined } from '../../../shared/defined'

/** What reading a workbook against a schema gives (src/core/workbooks). */
export interface ParsedWorkbook extends WorkbookValidation {
  /** The rows, unless the read kept them in a spill file (`spill`). */
  rows: InputRow[]
  spill?: SpilledRows | undefined
  /** The spreadsheet row number of each row. */
  rowNumbers: number[]
  /** The sheet read (xlsx). */
  sheet?: string | undefined
  /** The column mapping in force (the sheet's header → field key, null: not used). */
  mapping?: { applied: Record<string, string | null> } | undefined
  /** The rows set aside as the sheet was read, by sheet row. */
  setAside?: { rows: number; list?: { sheetRow: number; problems: string[] }[] } | undefined
  /** For a set-aside workbook read again: each row's row in the buyer's own sheet. */
  sourceRows?: number[] | undefined
}

/**
 * How a plan asks for a sheet to be read: the sheet, the mapping the user gave (else those
 * remembered for the target), and its rows with problems left out, written where `setAside`
 * says. A batch reads its sheet again with its own sheet and mapping.
 */
export interface SheetReadOptions {
  sheet?: string | undefined
  columnMap?: Record<string, string | null> | undefined
  rememberedMaps?: Record<string, Record<string, string | null>> | undefined
  setAside?: SetAsideTarget | undefined
  /** Keep the rows in a file made here rather than in memory (workbooks' row-spill.ts). */
  spill?: { path: string } | undefined
}

/** Reads a workbook (xlsx or csv) against a schema; the schema is null when it is not known. */
export type ReadWorkbook = (
  path: string,
  schema: ListingInputSchema | null,
  options?: SheetReadOptions,
) => Promise<ParsedWorkbook>

export interface RowSelection {
  /** First and last spreadsheet row to send (inclusive), e.g. from `--rows 2-11`. */
  fromRow?: number
  toRow?: number
  /** Only the first N rows (a pilot run). */
  first?: number
  /** Leave out these spreadsheet rows (those a pilot already sent). */
  except?: number[]
  /** Only these spreadsheet rows (chosen on the batch page). */
  only?: number[]
}

export interface ProgressHooks {
  signal?: AbortSignal
  onUpload?: (progress: UploadProgress) => void
  onStep?: (line: string) => void
}

/**
 * The selected rows' indexes among the parsed rows, and their spreadsheet row numbers; the rows
 * themselves are read from where the read kept them (plan-rows.ts).
 */
export function chosenRows(
  parsed: Pick<ParsedWorkbook, 'rowNumbers'>,
  selection: RowSelection,
): { indexes: number[]; rowNumbers: number[] } {
  let picked = parsed.rowNumbers.map((number, i) => ({ index: i, number }))
  if (selection.fromRow !== undefined) picked = picked.filter((p) => p.number >= selection.fromRow!)
  if (selection.toRow !== undefined) picked = picked.filter((p) => p.number <= selection.toRow!)
  if (selection.only) {
    const chosen = new Set(selection.only)
    picked = picked.filter((p) => chosen.has(p.number))
  }
  if (selection.first !== undefined) picked = picked.slice(0, selection.first)
  if (selection.except) {
    const sent = new Set(selection.except)
    picked = picked.filter((p) => !sent.has(p.number))
    if (picked.length === 0) {
      throw new EngineError(
        'refused',
        'Nothing is left to send: every row of the workbook was already sent.',
        'Open the runs that sent them to see their results.',
      )
    }
  }
  if (picked.length === 0) {
    throw new EngineError(
      'bad-input',
      'No rows are left to send with that selection.',
      'Check the row range or the pilot size.',
    )
  }
  return { indexes: picked.map((p) => p.index), rowNumbers: picked.map((p) => p.number) }
}

/**
 * Uploads the local files named in file cells and puts their inputAssetId in their place (as each
 * row is read: the rows are looked at once for their paths, never copied whole).
 */
export async function uploadFileCells(
  services: { uploads: Pick<Uploads, 'files'> },
  connection: Connection,
  rows: PlanRows,
  hooks: ProgressHooks = {},
): Promise<PlanRows> {
  const paths = new Set<string>()
  const visit = (value: unknown, onPath: (path: string) => unknown): unknown => {
    if (Array.isArray(value)) return value.map((v) => visit(v, onPath))
    if (value && typeof value === 'object' && 'localPath' in value) {
      const path = (value as { localPath: unknown }).localPath
      if (typeof path === 'string') return onPath(path)
    }
    return value
  }
  for await (const chunk of rows.chunks())
    for (const row of chunk)
      for (const value of Object.values(row)) visit(value, (p) => paths.add(p))
  if (paths.size === 0) return rows
  hooks.onStep?.(`uploading ${plural(paths.size, 'file')}`)
  const uploaded = await services.uploads.files(
    connection,
    [...paths],
    defined({
      signal: hooks.signal,
      onProgress: hooks.onUpload,
    }),
  )
  return rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([key, value]) => [
        key,
        visit(value, (p) => ({ inputAssetId: uploaded.get(p)!.asset.inputAssetId })),
      ]),
    ),
  )
}

// ---- Marketplace listings -------------------------------------------------------------------

/** The server's validateWorkbook for a file on disk. */
export async function validateOnServer(
  connection: Connection,
  file: string,
  listingId: string,
  listingVersionId: string,
  hooks: ProgressHooks = {},
  fileName = basename(file),
): Promise<WorkbookValidation> {
  let content: Buffer
  try {
    content = await readFile(file)
  } catch {
    throw new EngineError(
      'not-found',
      `The workbook “${file}” cannot be read.`,
      'Check that the file exists and that you may open it.',
    )
  }
  hooks.onStep?.(`validating ${fileName} on the service`)
  return connection.client.validateWorkbook(
    listingId,
    {
      clientRequestId: randomUUID(),
      confirm: true,
      filename: fileName,
      listingVersionId,
      content,
    },
    { signal: hooks.signal, timeoutMs: 120_000 },
  )
}
