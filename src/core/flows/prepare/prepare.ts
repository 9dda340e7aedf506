/**
 * Preparing a run, for the app's "New run" screen: which templates this computer knows, a
 * template's schema (fresh, or the saved copy offline), the input workbook to fill, and checking
 * a filled workbook in a worker with its rows kept for the screen's grid and its problems placed
 * on their cells. Nothing here spends money or needs the service once a schema is saved.
 *
 * A check is kept in memory (the last few) under an id the window made, so the grid can ask for
 * rows page by page and "Save a marked-up copy" can annotate the very file that was checked.
 */
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { statSync } from 'node:fs'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import type { ListingInputSchema, OfficialTemplateSchema, SchemaField } from '../../../shared/contract'
import type {
  CheckedColumn,
  CheckedProblem,
  CheckedRowsView,
  FileCellView,
  PrepareTarget,
  TemplateChoice,
  TemplateView,
  WorkbookCheckView,
} from '../../../shared/bridge'
import { ApiError } from '../../service'
import { BUILTIN_SANDBOX_TEMPLATE_IDS } from '../../environments/builtin-sandbox'
import { safeFileName } from '../downloads/downloads'
import type { Connection, Engine } from '../../engine'
import { EngineError } from '../../errors'
import { buyerListing, schemaFromWorkbookMapping } from '../listings/buyer-listing'
import {
  annotateWorkbook,
  columnLetter,
  generateInputWorkbook,
  parseInputWorkbook,
  SHEETS,
  type ReadResult,
} from '../../workbooks'
import { openXlsx } from '../../workbooks'

// ---- Templates ------------------------------------------------------------------------------

/** The official templates the app knows for a connection: the Sandbox's own, then cached ones. */
export async function knownTemplates(
  engine: Engine,
  connection: Connection,
): Promise<{ items: TemplateChoice[]; offline: boolean }> {
  const items: TemplateChoice[] = []
  let offline = false
  const seen = new Set<string>()
  if (connection.builtIn) {
    const found = await Promise.all(
      BUILTIN_SANDBOX_TEMPLATE_IDS.map((id) =>
        engine.schemas.template(connection, id).catch((error: unknown) => {
          if (error instanceof ApiError && error.isUnreachable) offline = true
          return null
        }),
      ),
    )
    found.forEach((cached, i) => {
      const id = BUILTIN_SANDBOX_TEMPLATE_IDS[i]!
      seen.add(id)
      if (cached?.fromCache) offline = true
      items.push({
        templateId: id,
        name: cached?.schema.name || id,
        description: cached?.schema.description ?? '',
        source: 'builtin',
        fetchedAtMs: cached?.fetchedAtMs ?? null,
      })
    })
  }
  for (const id of engine.schemas.ids(connection.historyKey)) {
    if (seen.has(id)) continue
    const cached = engine.schemas.cached(connection.historyKey, id)
    if (!cached) continue
    items.push({
      templateId: id,
      name: cached.schema.name || id,
      description: cached.schema.description,
      source: 'cached',
      fetchedAtMs: cached.fetchedAtMs,
    })
  }
  return { items, offline }
}

/** A template's schema for the screen (fresh when the service answers, else the saved copy). */
export async function templateView(
  engine: Engine,
  connection: Connection,
  templateId: string,
): Promise<TemplateView> {
  const cached = await engine.schemas.template(connection, templateId)
  const s = cached.schema
  return {
    environment: connection.name,
    templateId: s.templateId || templateId,
    name: s.name || templateId,
    description: s.description,
    version: s.version,
    instructions: s.instructions,
    columns: s.columns,
    fields: s.fields,
    fetchedAtMs: cached.fetchedAtMs,
    fromCache: cached.fromCache,
  }
}

/** What a workbook is checked against: the schema, a name to show, and where it came from. */
export interface TargetSchema {
  target: PrepareTarget
  name: string
  /** The schema as a template's (listings get their id as templateId, for the hidden sheet). */
  schema: OfficialTemplateSchema
  fromCache: boolean
  /** When the schema was fetched (a saved copy's age offline); null when not known. */
  fetchedAtMs: number | null
}

export async function targetSchema(
  engine: Engine,
  connection: Connection,
  target: PrepareTarget,
  /** The workbook being checked: a listing's schema may come from its hidden sheet. */
  workbookPath?: string,
): Promise<TargetSchema> {
  if (target.kind === 'template') {
    const cached = await engine.schemas.template(connection, target.templateId)
    return {
      target,
      name: cached.schema.name || target.templateId,
      schema: cached.schema,
      fromCache: cached.fromCache,
      fetchedAtMs: cached.fetchedAtMs,
    }
  }
  // The buyer's view of the listing (DESIGN.md), then the workbook made for it.
  const listing = await buyerListing(connection.client, target.listingId)
  const schema =
    listing.schema ??
    (workbookPath ? await schemaFromWorkbookMapping(workbookPath, target.listingId) : null)
  if (!schema) {
    throw new EngineError(
      'not-found',
      `The service does not show the input form of listing “${target.listingId}” to your account.`,
      'Check the listing id, or drop a workbook made for this listing (its creator can give you one).',
    )
  }
  return {
    target,
    name: listing.displayName || target.listingId,
    schema: asTemplateSchema(target.listingId, listing.displayName, listing.description, schema),
    fromCache: false,
    fetchedAtMs: null,
  }
}

function asTemplateSchema(
  id: string,
  name: string,
  description: string,
  schema: ListingInputSchema,
): OfficialTemplateSchema {
  return {
    templateId: id,
    name,
    description,
    scenario: '',
    version: '',
    inputSummary: '',
    outputType: '',
    instructions: [],
    columns: schema.columns,
    fields: schema.fields,
    sampleRows: [],
  }
}

/** The suggested file name of a target's input workbook. */
export function inputWorkbookName(name: string): string {
  return `${safeFileName(name, 'input')} input.xlsx`
}

/** Writes the input workbook of a target to `outPath`. */
export async function writeInputWorkbook(found: TargetSchema, outPath: string): Promise<void> {
  await generateInputWorkbook(
    found.schema,
    outPath,
    found.target.kind === 'listing' ? { listing: found.target } : {},
  )
}

/**
 * The target a workbook made by the app names in its hidden sheet, or null (a csv, a workbook
 * from elsewhere, or one that cannot be read: the check that follows says what is wrong).
 */
export async function workbookTarget(path: string): Promise<PrepareTarget | null> {
  try {
    const book = await openXlsx({ path })
    const mapping = book.sheets.find((s) => s.name.toLowerCase() === SHEETS.mapping.toLowerCase())
    if (!mapping) return null
    const values = new Map<string, string>()
    await book.rows(mapping, (cells) => {
      const [a, b] = cells
      if (typeof a === 'string' && (typeof b === 'string' || typeof b === 'number'))
        values.set(a.trim(), String(b).trim())
    })
    const listingId = values.get('listingId')
    const listingVersionId = values.get('listingVersionId')
    if (listingId && listingVersionId) return { kind: 'listing', listingId, listingVersionId }
    const templateId = values.get('templateId')
    return templateId ? { kind: 'template', templateId } : null
  } catch {
    return null
  }
}

// ---- Checking workbooks ----------------------------------------------------------------------

/** What one offline check found: the schema it used (null: none known) and what the reader saw. */
export interface OfflineCheck {
  found: TargetSchema | null
  /** The target came from the workbook's hidden sheet, not from the caller. */
  targetFromWorkbook: boolean
  result: ReadResult
}

/**
 * Offline validation, the one flow behind the CLI's `validate` and the app's "New run" check:
 * finds the schema (fetched, or the saved copy offline; for a workbook without a target, the one
 * its hidden sheet names), then reads and checks the workbook in a worker. `keepCells` keeps every
 * cell for a grid; without it a million-row file costs no more memory than a small one. The
 * result feeds `annotateWorkbook` for the marked-up copy.
 */
export async function checkWorkbook(
  engine: Engine,
  connection: Connection,
  path: string,
  options: {
    target?: PrepareTarget | undefined
    keepCells?: boolean
    checkFiles?: boolean
    runValues?: Record<string, string> | undefined
    signal?: AbortSignal
    maxMemoryMb?: number
    onProgress?: ((rowsRead: number) => void) | undefined
  } = {},
): Promise<OfflineCheck> {
  const fromWorkbook = options.target ? null : await workbookTarget(path)
  const target = options.target ?? fromWorkbook
  const found = target
    ? await targetSchema(engine, connection, target, path).catch(async (error: unknown) => {
        // A workbook the command line made for a listing names the listing as its template.
        const asListing =
          fromWorkbook?.kind === 'template' && error instanceof ApiError && error.status === 404
            ? await listingNamed(connection, fromWorkbook.templateId)
            : null
        if (!asListing) throw error
        return targetSchema(engine, connection, asListing, path)
      })
    : null
  options.signal?.throwIfAborted()
  const keepCells = options.keepCells ?? false
  const result = await parseInputWorkbook({ path }, found?.schema ?? null, {
    // The grid's cells come with the rows; a check for the command line keeps neither.
    keepRows: keepCells,
    keepCells,
    checkFiles: options.checkFiles ?? true,
    ...(options.runValues ? { runValues: options.runValues } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.maxMemoryMb ? { maxMemoryMb: options.maxMemoryMb } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  })
  return { found, targetFromWorkbook: fromWorkbook !== null, result }
}

/** A workbook to check: a file on this computer, or the content a page sent. */
export type CheckSource =
  { kind: 'path'; path: string; name: string } | { kind: 'bytes'; name: string; bytes: Buffer }

interface KeptCheck {
  view: WorkbookCheckView
  /** The file that was checked (a private copy for content a page sent). */
  path: string
  result: ReadResult
  /** Bad columns (1-based) by row position. */
  badByPosition: Map<number, number[]>
  scratch: string | null
}

const KEPT_CHECKS = 3
const MAX_FILE_CELLS = 5000

export class WorkbookChecks {
  private readonly kept = new Map<string, KeptCheck>()
  private readonly running = new Map<string, AbortController>()

  constructor(
    private readonly engine: Engine,
    /** Heap ceiling of the reading worker, MB. */
    private readonly maxMemoryMb = 1024,
  ) {}

  /** Reads and checks a workbook; keeps the result under `checkId` for rows and the copy. */
  async check(
    connection: Connection,
    request: {
      checkId: string
      source: CheckSource
      target?: PrepareTarget | undefined
      runValues?: Record<string, string> | undefined
      onProgress?: (rowsRead: number) => void
    },
  ): Promise<WorkbookCheckView> {
    const { checkId, source } = request
    if (this.running.has(checkId) || this.kept.has(checkId)) {
      throw new EngineError(
        'conflict',
        'That check is already under way.',
        'Wait for it to end, or cancel it.',
      )
    }
    const controller = new AbortController()
    this.running.set(checkId, controller)
    let scratch: string | null = null
    try {
      let path: string
      let sizeBytes: number
      if (source.kind === 'path') {
        path = source.path
        sizeBytes = await stat(path).then(
          (s) => s.size,
          () => {
            throw new EngineError(
              'not-found',
              `Skill Runner cannot read “${source.name}”.`,
              'Check that the file still exists and that you may open it, then drop it again.',
            )
          },
        )
      } else {
        // A private copy: the reader streams from disk, and the marked-up copy is made from it.
        await mkdir(join(this.engine.home, 'tmp'), { recursive: true })
        scratch = await mkdtemp(join(this.engine.home, 'tmp', 'check-'))
        path = join(scratch, safeFileName(source.name, 'workbook.xlsx'))
        await writeFile(path, source.bytes)
        sizeBytes = source.bytes.length
      }
      const checked = await checkWorkbook(this.engine, connection, path, {
        target: request.target,
        keepCells: true,
        // Content from a page has no folder here: its file cells cannot be looked for.
        checkFiles: source.kind === 'path',
        runValues: request.runValues,
        signal: controller.signal,
        maxMemoryMb: this.maxMemoryMb,
        onProgress: request.onProgress,
      }).catch((error: unknown) => {
        if (controller.signal.aborted) {
          throw new EngineError(
            'cancelled',
            'The check was cancelled.',
            'Drop or choose the workbook again to check it.',
          )
        }
        throw error
      })
      const { found, result } = checked
      // The submitted values are not needed here (a plan reads the workbook again).
      result.rows = []
      const view = describeCheck({
        checkId,
        environment: connection.name,
        fileName: source.name,
        sizeBytes,
        found,
        targetFromWorkbook: checked.targetFromWorkbook,
        result,
        workbookDir: source.kind === 'path' ? dirname(resolve(path)) : null,
      })
      this.keep(checkId, { view, path, result, badByPosition: badCells(view), scratch })
      scratch = null
      return view
    } finally {
      this.running.delete(checkId)
      if (scratch) await rm(scratch, { recursive: true, force: true })
    }
  }

  /** Stops a check under way (its caller gets "cancelled"); true when one was running. */
  cancel(checkId: string): boolean {
    const controller = this.running.get(checkId)
    controller?.abort(new Error('cancelled'))
    return controller !== undefined
  }

  rows(checkId: string, offset: number, limit: number): CheckedRowsView {
    const kept = this.get(checkId)
    const cells = kept.result.cells ?? []
    const end = Math.min(cells.length, offset + limit)
    const rows: CheckedRowsView['rows'] = []
    for (let i = offset; i < end; i += 1) {
      rows.push({
        rowNumber: kept.result.rowNumbers[i] ?? i + 2,
        cells: cells[i] ?? [],
        badColumns: kept.badByPosition.get(i) ?? [],
      })
    }
    return { checkId, offset, total: cells.length, rows }
  }

  /** The marked-up copy of a checked workbook, written to `outPath`. */
  async annotate(checkId: string, outPath: string): Promise<void> {
    const kept = this.get(checkId)
    await annotateWorkbook(kept.path, kept.result, outPath)
  }

  /** The name a marked-up copy is offered under. */
  markedUpName(checkId: string): string {
    const name = this.get(checkId).view.fileName.replace(/\.(xlsx|csv|tsv|txt)$/i, '')
    return `${safeFileName(name, 'workbook')} (marked up).xlsx`
  }

  async dispose() {
    for (const controller of this.running.values()) controller.abort(new Error('closing'))
    for (const id of [...this.kept.keys()]) await this.drop(id)
  }

  private get(checkId: string): KeptCheck {
    const kept = this.kept.get(checkId)
    if (!kept) {
      throw new EngineError(
        'not-found',
        'That workbook check is no longer kept.',
        'Check the workbook again.',
      )
    }
    return kept
  }

  private keep(checkId: string, kept: KeptCheck) {
    this.kept.set(checkId, kept)
    while (this.kept.size > KEPT_CHECKS) {
      const oldest = this.kept.keys().next().value
      if (oldest === undefined) break
      void this.drop(oldest)
    }
  }

  private async drop(checkId: string) {
    const kept = this.kept.get(checkId)
    this.kept.delete(checkId)
    if (kept?.scratch) await rm(kept.scratch, { recursive: true, force: true })
  }
}

/** The published listing with this id, as a target to check against; null when there is none. */
async function listingNamed(
  connection: Connection,
  listingId: string,
): Promise<PrepareTarget | null> {
  const listing = await buyerListing(connection.client, listingId).catch(() => null)
  if (!listing || listing.source === 'none') return null
  return {
    kind: 'listing',
    listingId: listing.listingId,
    listingVersionId: listing.publishedVersionId || listing.listingVersionId,
  }
}

/** Reads a file the app wrote into a temporary folder, then removes it. */
export async function bytesOfTemporary(
  engine: Engine,
  name: string,
  write: (path: string) => Promise<void>,
): Promise<Buffer> {
  await mkdir(join(engine.home, 'tmp'), { recursive: true })
  const folder = await mkdtemp(join(engine.home, 'tmp', 'file-'))
  try {
    const path = join(folder, safeFileName(name, 'file.xlsx'))
    await write(path)
    return await readFile(path)
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}

/** Turns what the reader found into what the screen shows. */
export function describeCheck(input: {
  checkId: string
  environment: string
  fileName: string
  sizeBytes: number
  found: TargetSchema | null
  targetFromWorkbook: boolean
  result: ReadResult
  /** The workbook's folder on this computer (file cells are looked for there); null: unknown. */
  workbookDir: string | null
  now?: number
}): WorkbookCheckView {
  const { found, result } = input
  const fields = new Map((found?.schema.fields ?? []).map((f) => [f.key, f]))
  const headers = result.headers ?? []
  const columnFields = result.columnFields ?? []
  const columns: CheckedColumn[] = headers.map((header, i) => {
    const key = columnFields[i] ?? null
    const field = key ? fields.get(key) : undefined
    return {
      letter: columnLetter(i),
      header,
      fieldKey: key,
      label: field?.label || header,
      type: field?.type ?? '',
    }
  })
  const positions = new Map(result.rowNumbers.map((n, i) => [n, i]))
  const problems: CheckedProblem[] = result.rowErrors.map((error, i) => {
    const cell = result.errorCells[i]
    const rowNumber = cell?.row ?? error.rowIndex + 2
    return {
      message: error.error,
      fieldKey: error.fieldKey,
      rowNumber,
      column: cell?.column ?? null,
      rowPosition: positions.get(rowNumber) ?? null,
    }
  })
  const runFields = [...fields.values()]
    .filter((f) => f.scope === 'run')
    .map((field) => ({ field, value: '' }))
  const fileErrors = [...result.fileErrors]
  if (!found) {
    fileErrors.unshift(
      'This workbook does not say which template it is for. Choose the template (or listing) above, and the workbook is checked against it.',
    )
  }
  return {
    checkId: input.checkId,
    environment: input.environment,
    fileName: input.fileName,
    sizeBytes: input.sizeBytes,
    target: found ? { ...found.target, name: found.name } : null,
    targetFromWorkbook: input.targetFromWorkbook,
    valid: Boolean(found) && result.valid,
    fileErrors,
    problems,
    rowCount: result.rowCount,
    columns,
    runFields,
    fileCells: fileCellsOf(result, columns, fields, input.workbookDir),
    schemaFromCache: found?.fromCache ?? false,
    checkedAtMs: input.now ?? Date.now(),
  }
}

function fileCellsOf(
  result: ReadResult,
  columns: CheckedColumn[],
  fields: Map<string, SchemaField>,
  workbookDir: string | null,
): FileCellView[] {
  const fileColumns = columns
    .map((c, i) => ({ i, field: c.fieldKey ? fields.get(c.fieldKey) : undefined }))
    .filter((c) => c.field?.type === 'file')
  if (fileColumns.length === 0) return []
  const out: FileCellView[] = []
  const cells = result.cells ?? []
  const exists = new Map<string, boolean>()
  for (let r = 0; r < cells.length && out.length < MAX_FILE_CELLS; r += 1) {
    for (const { i, field } of fileColumns) {
      const text = cells[r]?.[i] ?? ''
      const values = field!.multiValue ? text.split(/[;\n\r]+/) : [text]
      for (const raw of values) {
        const value = raw.trim()
        if (!value) continue
        let state: FileCellView['state']
        if (/^https?:\/\//i.test(value)) state = 'url'
        // A page's workbook names files on the page's computer: none is looked for here.
        else if (workbookDir === null) state = 'unchecked'
        else {
          const path = isAbsolute(value) ? value : resolve(workbookDir ?? '/', value)
          if (!exists.has(path)) {
            let ok = false
            try {
              ok = statSync(path).isFile()
            } catch {
              ok = false
            }
            exists.set(path, ok)
          }
          state = workbookDir === null ? 'unchecked' : exists.get(path) ? 'found' : 'missing'
        }
        out.push({ value, rowNumber: result.rowNumbers[r] ?? r + 2, fieldKey: field!.key, state })
      }
    }
  }
  return out
}

function badCells(view: WorkbookCheckView): Map<number, number[]> {
  const bad = new Map<number, number[]>()
  for (const p of view.problems) {
    if (p.rowPosition === null || p.column === null) continue
    const list = bad.get(p.rowPosition) ?? []
    if (!list.includes(p.column)) list.push(p.column)
    bad.set(p.rowPosition, list)
  }
  return bad
}
