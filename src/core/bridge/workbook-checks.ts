/**
 * The workbook checks the New run screen keeps: the last few, under an id the window made, so
 * the grid can ask for rows page by page and "Save a marked-up copy" can annotate the very file
 * that was checked. Content a page sent is checked from a private copy on disk.
 */
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import type { CheckedRowsView, WorkbookCheckView } from '../../shared/bridge'
import type { Connection } from '../environments/connection'
import { EngineError } from '../errors'
import { safeFileName } from '../flows/downloads/downloads'
import { checkWorkbook, type CheckChoices } from '../flows/prepare/check-workbook'
import type { Schemas } from '../flows/prepare/schema-cache'
import { annotateWorkbook, type ReadResult } from '../workbooks'
import { badCells, describeCheck } from './presenters/check-view'
import { mappingView } from './presenters/mapping-view'
import type { ColumnMappings } from '../flows/prepare/column-mappings'
import type { WorkerPool } from '../workbooks'

/** A workbook to check: a file on this computer, or the content a page sent. */
export type CheckSource =
  { kind: 'path'; path: string; name: string } | { kind: 'bytes'; name: string; bytes: Buffer }

interface HeldCheck {
  view: WorkbookCheckView
  /** The file that was checked (a private copy for content a page sent). */
  path: string
  result: ReadResult
  /** Bad columns (1-based) by row position. */
  badByPosition: Map<number, number[]>
  scratch: string | null
}

const HELD_CHECKS = 3

export class WorkbookChecks {
  private readonly held = new Map<string, HeldCheck>()
  private readonly running = new Map<string, AbortController>()

  constructor(
    private readonly services: {
      home: string
      schemas: Pick<Schemas, 'template'>
      mappings?: Pick<ColumnMappings, 'forTarget' | 'remember'>
      workbookWorker?: WorkerPool
    },
    /** Heap ceiling of the reading worker, MB. */
    private readonly maxMemoryMb = 1024,
  ) {}

  /** Reads and checks a workbook; keeps the result under `checkId` for rows and the copy. */
  async check(
    connection: Connection,
    request: { checkId: string; source: CheckSource } & CheckChoices,
  ): Promise<WorkbookCheckView> {
    const { checkId, source, ...choices } = request
    if (this.running.has(checkId) || this.held.has(checkId)) {
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
      const file = await this.fileOf(source)
      scratch = file.scratch
      const { path, sizeBytes } = file
      const checked = await checkWorkbook(this.services, connection, path, {
        ...choices,
        keepCells: true,
        // Content from a page has no folder here: its file cells cannot be looked for.
        checkFiles: source.kind === 'path',
        signal: controller.signal,
        maxMemoryMb: this.maxMemoryMb,
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
      const described = describeCheck({
        checkId,
        environment: connection.name,
        fileName: source.name,
        sizeBytes,
        found,
        targetFromWorkbook: checked.targetFromWorkbook,
        result,
        workbookDir: source.kind === 'path' ? dirname(resolve(path)) : null,
      })
      const view = {
        ...described,
        ...mappingView(result.mapping, found?.schema, described.fileErrors),
      }
      this.keep(checkId, { view, path, result, badByPosition: badCells(view), scratch })
      scratch = null
      return view
    } finally {
      this.running.delete(checkId)
      if (scratch) await rm(scratch, { recursive: true, force: true })
    }
  }

  /** The file to read: the desktop's own, or a private copy of what a page sent. */
  private async fileOf(
    source: CheckSource,
  ): Promise<{ path: string; sizeBytes: number; scratch: string | null }> {
    if (source.kind === 'path') {
      const sizeBytes = await stat(source.path).then(
        (s) => s.size,
        () => {
          throw new EngineError(
            'not-found',
            `Skill Runner cannot read “${source.name}”.`,
            'Check that the file still exists and that you may open it, then drop it again.',
          )
        },
      )
      return { path: source.path, sizeBytes, scratch: null }
    }
    // A private copy: the reader streams from disk, and the marked-up copy is made from it.
    await mkdir(join(this.services.home, 'tmp'), { recursive: true })
    const scratch = await mkdtemp(join(this.services.home, 'tmp', 'check-'))
    const path = join(scratch, safeFileName(source.name, 'workbook.xlsx'))
    await writeFile(path, source.bytes).catch(async (error: unknown) => {
      await rm(scratch, { recursive: true, force: true })
      throw error
    })
    return { path, sizeBytes: source.bytes.length, scratch }
  }

  /** Stops a check under way (its caller gets "cancelled"); true when one was running. */
  cancel(checkId: string): boolean {
    const controller = this.running.get(checkId)
    controller?.abort(new Error('cancelled'))
    return controller !== undefined
  }

  rows(checkId: string, offset: number, limit: number): CheckedRowsView {
    const held = this.get(checkId)
    const cells = held.result.cells ?? []
    const end = Math.min(cells.length, offset + limit)
    const rows: CheckedRowsView['rows'] = []
    for (let i = offset; i < end; i += 1) {
      rows.push({
        rowNumber: held.result.rowNumbers[i] ?? i + 2,
        cells: cells[i] ?? [],
        badColumns: held.badByPosition.get(i) ?? [],
      })
    }
    return { checkId, offset, total: cells.length, rows }
  }

  /** The marked-up copy of a checked workbook, written to `outPath`. */
  async annotate(checkId: string, outPath: string): Promise<void> {
    const held = this.get(checkId)
    const worker = this.services.workbookWorker
    await annotateWorkbook(held.path, held.result, outPath, worker ? { pool: worker } : {})
  }

  /** The file a held check read (a scratch copy for content a page sent), or null when gone. */
  checkedFile(checkId: string): { path: string; name: string; isCopy: boolean } | null {
    const held = this.held.get(checkId)
    if (!held) return null
    return { path: held.path, name: held.view.fileName, isCopy: held.scratch !== null }
  }

  /** The name a marked-up copy is offered under. */
  markedUpName(checkId: string): string {
    const name = this.get(checkId).view.fileName.replace(/\.(xlsx|csv|tsv|txt)$/i, '')
    return `${safeFileName(name, 'workbook')} (marked up).xlsx`
  }

  async dispose() {
    for (const controller of this.running.values()) controller.abort(new Error('closing'))
    for (const id of [...this.held.keys()]) await this.drop(id)
  }

  private get(checkId: string): HeldCheck {
    const held = this.held.get(checkId)
    if (!held) {
      throw new EngineError(
        'not-found',
        'That workbook check is no longer held in memory: only the last few are.',
        'Check the workbook again.',
      )
    }
    return held
  }

  private keep(checkId: string, held: HeldCheck) {
    this.held.set(checkId, held)
    while (this.held.size > HELD_CHECKS) {
      const oldest = this.held.keys().next().value
      if (oldest === undefined) break
      void this.drop(oldest)
    }
  }

  private async drop(checkId: string) {
    const held = this.held.get(checkId)
    this.held.delete(checkId)
    if (held?.scratch) await rm(held.scratch, { recursive: true, force: true })
  }
}
