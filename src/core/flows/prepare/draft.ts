/**
 * The New run screen's draft: what the user chose so far, per environment, so a reload or a
 * restart lands on the same step. The workbook is kept where it is on this computer (its SHA-256,
 * size and time of change noted, so an edit or a move is noticed), or, for content a page sent,
 * as a copy under `<home>/drafts/`. A draft holds no token, and restoring one sends nothing.
 */
import { sha256Hash } from '../../files/hashing'
import { copyFile, mkdir, readFile, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { prepareDraftSchema, type PrepareDraft } from '../../../shared/bridge/requests/draft-schema'
import { safeFileName } from '../../files/safe-names'
import type { Db } from '../../storage/db'
import { parseJsonColumn } from '../../storage/read-row'
import { PrepareDraftsTable, type DraftWorkbookRecord } from '../../storage/tables/prepare-drafts'
import { hashFile } from '../spend/uploads'

/** A checked workbook to keep with the draft: the user's own file, or the engine's scratch copy. */
export interface DraftWorkbookSource {
  path: string
  name: string
  /** True for a scratch copy of what a page sent (it is copied, as the scratch copy goes away). */
  isCopy: boolean
}

/** A restored draft's workbook: the same bytes as when kept, or changed, or gone. */
export type RestoredWorkbook =
  | { state: 'same'; name: string; path: string; isCopy: boolean; bytes: Buffer }
  | { state: 'changed' | 'missing'; name: string }

export interface RestoredDraft {
  draft: PrepareDraft
  workbook: RestoredWorkbook | null
  savedAtMs: number
}

const EMPTY_DRAFT: PrepareDraft = {
  step: 'target',
  target: null,
  sheet: null,
  mapping: null,
  runValues: {},
  pilot: { on: false, rows: 5 },
  sent: null,
}

const sha256 = (bytes: Buffer) => sha256Hash().update(bytes).digest('hex')

export class PrepareDrafts {
  private readonly table: PrepareDraftsTable

  constructor(
    db: Db,
    /** Where copies of workbooks a page sent are kept (<home>/drafts). */
    private readonly folder: string,
  ) {
    this.table = new PrepareDraftsTable(db)
  }

  /**
   * Keeps an environment's draft. `workbook`: the file to keep; null: none; undefined: the one
   * kept already (its check is gone, the file is not). A sent draft keeps no workbook.
   */
  async save(
    environment: string,
    draft: PrepareDraft,
    workbook: DraftWorkbookSource | null | undefined,
  ): Promise<void> {
    const previous = this.table.get(environment)
    const saved =
      draft.step === 'sent' || workbook === null
        ? null
        : workbook === undefined
          ? (previous?.workbook ?? null)
          : await this.keepWorkbook(environment, workbook, previous?.workbook ?? null)
    this.table.put({
      environment,
      choicesJson: JSON.stringify(prepareDraftSchema.parse(draft)),
      workbook: saved,
      savedAtMs: Date.now(),
    })
    const old = previous?.workbook
    if (old?.isCopy && old.path !== saved?.path) await rm(old.path, { force: true })
  }

  /** The environment's draft with its workbook read again, or null (none, or unreadable). */
  async load(environment: string): Promise<RestoredDraft | null> {
    const record = this.table.get(environment)
    if (!record) return null
    const parsed = prepareDraftSchema.safeParse(parseJsonColumn(record.choicesJson))
    if (!parsed.success) {
      // Written by another version of the app: a fresh start is better than a wrong restore.
      await this.clear(environment)
      return null
    }
    const workbook = record.workbook ? await readSaved(record.workbook) : null
    return { draft: parsed.data, workbook, savedAtMs: record.savedAtMs }
  }

  /**
   * The draft became a run: kept as a link to it, without its workbook, so a reload shows the run
   * and never a screen ready to send the same rows again.
   */
  async markSent(environment: string, sent: NonNullable<PrepareDraft['sent']>): Promise<void> {
    const record = this.table.get(environment)
    const parsed = record && prepareDraftSchema.safeParse(parseJsonColumn(record.choicesJson))
    const draft: PrepareDraft = parsed?.success ? parsed.data : EMPTY_DRAFT
    await this.save(environment, { ...draft, step: 'sent', sent }, null)
  }

  /** Forgets the draft, and the copy of its workbook if the engine made one. */
  async clear(environment: string): Promise<void> {
    const previous = this.table.get(environment)
    this.table.delete(environment)
    if (previous?.workbook?.isCopy) await rm(previous.workbook.path, { force: true })
  }

  /** Notes the user's own file as it is now, or copies what a page sent beside the history. */
  private async keepWorkbook(
    environment: string,
    source: DraftWorkbookSource,
    previous: DraftWorkbookRecord | null,
  ): Promise<DraftWorkbookRecord> {
    const { size, mtimeMs } = await stat(source.path)
    if (!source.isCopy) {
      // Saved again as the user goes: a file unchanged on disk is not read again.
      const same =
        previous !== null &&
        !previous.isCopy &&
        previous.path === source.path &&
        previous.sizeBytes === size &&
        previous.mtimeMs === mtimeMs
      if (same) return previous
      return { ...source, sha256: await hashFile(source.path), sizeBytes: size, mtimeMs }
    }
    const hash = await hashFile(source.path)
    // The same content kept already (a check again, another sheet): no second copy.
    if (previous?.isCopy && previous.sha256 === hash) return previous
    await mkdir(this.folder, { recursive: true })
    const envKey = sha256(Buffer.from(environment.toLowerCase())).slice(0, 12)
    const path = join(
      this.folder,
      `${envKey}-${hash.slice(0, 12)}-${safeFileName(source.name, 'workbook.xlsx')}`,
    )
    await copyFile(source.path, path)
    return {
      name: source.name,
      path,
      isCopy: true,
      sha256: hash,
      sizeBytes: size,
      mtimeMs: 0,
    }
  }
}

/** A draft's saved workbook read again: the same content as when saved, changed, or gone. */
async function readSaved(saved: DraftWorkbookRecord): Promise<RestoredWorkbook> {
  const bytes = await readFile(saved.path).catch(() => null)
  if (!bytes) return { state: 'missing', name: saved.name }
  if (bytes.length !== saved.sizeBytes || sha256(bytes) !== saved.sha256)
    return { state: 'changed', name: saved.name }
  return { state: 'same', name: saved.name, path: saved.path, isCopy: saved.isCopy, bytes }
}
