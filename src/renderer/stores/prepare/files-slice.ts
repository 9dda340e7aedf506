/**
 * Step 3 of the New run screen, after the check: the local files a checked workbook's file cells name. In a
 * browser the page cannot read paths on this computer, so the user drops the folder that holds
 * them; the files found are uploaded once each, and the plan puts their inputAssetIds in the
 * cells. Selectors for matching cells to that folder live here too.
 */
import type { FileCellView, FileRef, WorkbookCheckView } from '../../../shared/bridge'
import { errorInfo } from '../errors'
import type { SliceContext } from './prepare-state'
import type {
  FolderFiles,
  UploadItem,
  FilesData,
  FilesActions,
  ResolvedFileCell,
} from './files-types'
export type { FolderFiles, FilesData, FilesActions, ResolvedFileCell } from './files-types'

export function initialFiles(): FilesData {
  return {
    folder: new Map(),
    uploads: [],
    uploading: false,
    uploadWorkId: '',
    uploadStopped: false,
    uploadError: null,
    overall: null,
  }
}

function normalise(path: string): string {
  return path
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/{2,}/g, '/')
}

/**
 * Which file cells name a file of the dropped folder. A cell's path is relative to the workbook;
 * the folder may be the one beside the workbook ("photos/a.png" with the folder "photos") or the
 * workbook's own folder ("a.png" within "shoot/a.png"): both match. Case is ignored last.
 */
export function resolveFileCells(cells: FileCellView[], folder: FolderFiles): ResolvedFileCell[] {
  if (folder.size === 0) return cells.map((c) => ({ ...c, file: null, key: c.value }))
  const exact = new Map<string, [string, File]>()
  const loose = new Map<string, [string, File]>()
  for (const [path, file] of folder) {
    const full = normalise(path)
    const inner = full.includes('/') ? full.slice(full.indexOf('/') + 1) : full
    for (const candidate of [full, inner]) {
      if (!exact.has(candidate)) exact.set(candidate, [full, file])
      if (!loose.has(candidate.toLowerCase())) loose.set(candidate.toLowerCase(), [full, file])
    }
  }
  return cells.map((cell) => {
    if (cell.state !== 'unchecked') return { ...cell, file: null, key: cell.value }
    const wanted = normalise(cell.value)
    const hit = exact.get(wanted) ?? loose.get(wanted.toLowerCase())
    return hit
      ? { ...cell, state: 'found', file: hit[1], key: hit[0] }
      : { ...cell, state: 'missing', file: null, key: cell.value }
  })
}

export function countFileCells(cells: { state: FileCellView['state'] }[]) {
  const counts = { found: 0, missing: 0, url: 0, unchecked: 0 }
  for (const c of cells) counts[c.state] += 1
  return counts
}

/**
 * The uploads made for a checked workbook's file cells, by each cell's text as written: what a
 * plan for a workbook sent as bytes puts in those cells. Cells without an upload are left out
 * (the plan lists them as row errors).
 */
export function uploadedFileCells(
  state: FilesData & { check: WorkbookCheckView | null },
): { path: string; inputAssetId: string }[] {
  if (!state.check) return []
  const ids = new Map(state.uploads.filter((u) => u.inputAssetId).map((u) => [u.name, u]))
  const out = new Map<string, string>()
  for (const cell of resolveFileCells(state.check.fileCells, state.folder)) {
    const id = cell.file ? ids.get(cell.key)?.inputAssetId : undefined
    if (id && !out.has(cell.value)) out.set(cell.value, id)
  }
  return [...out].map(([path, inputAssetId]) => ({ path, inputAssetId }))
}

/** The distinct files the checked cells found in the folder, by upload name. */
function filesToUpload(state: FilesData & { check: WorkbookCheckView }): Map<string, File> {
  const unique = new Map<string, File>()
  for (const cell of resolveFileCells(state.check.fileCells, state.folder))
    if (cell.file && cell.state !== 'url') unique.set(cell.key, cell.file)
  return unique
}

/** An upload's row once the engine answered for it. */
function uploaded(
  item: UploadItem,
  asset: { inputAssetId: string; sizeBytes: number; reused: boolean },
) {
  return {
    ...item,
    state: asset.reused ? 'reused' : 'done',
    inputAssetId: asset.inputAssetId,
    sentBytes: asset.sizeBytes,
    totalBytes: asset.sizeBytes,
  } satisfies UploadItem
}

/** Sends the files not uploaded yet, under a work id the user's Cancel stops. */
async function sendUploads(ctx: SliceContext, environment: string, todo: [string, File][]) {
  const { set, get, api } = ctx
  const workId = ctx.newId()
  set({ uploadWorkId: workId, uploadStopped: false })
  // Uploads the user stopped answer late, if at all: what they say is dropped.
  const current = () => get().uploadWorkId === workId
  try {
    const refs: FileRef[] = []
    for (const [name, file] of todo) refs.push({ ...(await ctx.toFileRef(file)), name })
    if (!current()) return
    const result = await api.uploadFiles({ environment, files: refs, workId })
    if (!current()) return
    const ids = new Map(result.assets.map((a) => [a.name, a]))
    set({
      uploading: false,
      uploadWorkId: '',
      uploads: get().uploads.map((u) => {
        const asset = ids.get(u.name)
        return asset ? uploaded(u, asset) : u
      }),
    })
  } catch (error) {
    if (!current()) return
    set({
      uploading: false,
      uploadWorkId: '',
      uploadError: errorInfo(error),
      uploads: get().uploads.map((u) =>
        u.inputAssetId ? u : { ...u, state: u.state === 'waiting' ? 'waiting' : 'failed' },
      ),
    })
  }
}

export function filesActions(ctx: SliceContext): FilesActions {
  const { set, get, api } = ctx

  return {
    addFolder(files) {
      const folder = new Map(get().folder)
      for (const [path, file] of files) folder.set(path, file)
      set({ folder })
    },
    async uploadFiles() {
      const { environment, check } = get()
      if (!environment || !check) return
      // One upload per distinct file (the engine also skips contents it already sent).
      const unique = filesToUpload({ ...get(), check })
      if (unique.size === 0) return
      const previous = new Map(get().uploads.map((u) => [u.name, u]))
      const todo = [...unique].filter(([name]) => !previous.get(name)?.inputAssetId)
      set({
        uploading: todo.length > 0,
        uploadError: null,
        uploads: [...unique].map(
          ([name, file]) =>
            previous.get(name) ?? {
              name,
              state: 'waiting',
              sentBytes: 0,
              totalBytes: file.size,
              inputAssetId: '',
            },
        ),
      })
      if (todo.length > 0) await sendUploads(ctx, environment, todo)
    },
    cancelUploads() {
      const { uploading, uploadWorkId } = get()
      if (!uploading) return
      // A file cut off mid-way is not on the service: it waits to be uploaded again.
      set({
        uploading: false,
        uploadWorkId: '',
        uploadStopped: true,
        overall: null,
        uploads: get().uploads.map((u) =>
          u.inputAssetId ? u : { ...u, state: 'waiting', sentBytes: 0 },
        ),
      })
      if (uploadWorkId) void api.cancelWork({ workId: uploadWorkId }).catch(() => {})
    },
    applyUploadProgress(update) {
      if (update.environment !== get().environment || !get().uploading) return
      set({
        overall: update.overall,
        uploads: get().uploads.map((u) =>
          u.name === update.name
            ? {
                ...u,
                state: update.state,
                sentBytes: update.sentBytes,
                totalBytes: update.totalBytes,
              }
            : u,
        ),
      })
    },
  }
}
