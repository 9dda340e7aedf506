/** Plain functions over the "New run" state, tested on their own. */
import type { FileCellView, WorkbookCheckView } from '../../shared/bridge'
import type { SchemaField } from '../../shared/contract'

/** Files of a dropped folder, by their path relative to it ("photos/a.png"). */
export type FolderFiles = Map<string, File>

export interface ResolvedFileCell extends FileCellView {
  /** The file to upload (browser mode: from the dropped folder), or null. */
  file: File | null
  /** The name the file is uploaded under (its path in the folder, or the cell's value). */
  key: string
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

/** One line that says how the check went. */
export function checkHeadline(check: WorkbookCheckView): string {
  const rows = `${check.rowCount.toLocaleString('en-US')} row${check.rowCount === 1 ? '' : 's'}`
  if (!check.target) return `${rows} read. Choose what this workbook is for to check it.`
  const problems = check.fileErrors.length + check.problems.length
  if (check.valid) return `${rows}, no problems: ready to send.`
  return `${rows}, ${problems.toLocaleString('en-US')} problem${problems === 1 ? '' : 's'} to fix in the workbook.`
}

/** "3 hours ago"-style age of a saved schema. */
export function describeAge(fetchedAtMs: number, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - fetchedAtMs) / 60_000))
  if (minutes < 1) return 'just now'
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`
  const hours = Math.round(minutes / 60)
  if (hours < 48) return `${hours} hour${hours === 1 ? '' : 's'} ago`
  return `${Math.round(hours / 24)} days ago`
}

const TYPE_WORDS: Record<string, string> = {
  string: 'Short text',
  text: 'Text',
  integer: 'Whole number',
  number: 'Number',
  boolean: 'Yes or no',
  date: 'Date (e.g. 2026-03-05)',
  enum: 'One of a list',
  url: 'Web address',
  email: 'Email address',
  file: 'File',
}

/** A field's kind of value in words. */
export function describeType(field: Pick<SchemaField, 'type' | 'multiValue'>): string {
  const base = TYPE_WORDS[field.type] ?? field.type
  return field.multiValue ? `${base}, several allowed (separate with ;)` : base
}

const KIND_WORDS: Record<string, string> = {
  asset: 'a file from this computer',
  url: 'a web address',
  text: 'text typed in the cell',
}

/** What a file field accepts, in words. */
export function describeFileKinds(
  field: Pick<SchemaField, 'acceptedInputKinds' | 'acceptedMimeTypes'>,
): string {
  const kinds = field.acceptedInputKinds.map((k) => KIND_WORDS[k] ?? k)
  const parts: string[] = []
  if (kinds.length) parts.push(`Takes ${kinds.join(', or ')}`)
  if (field.acceptedMimeTypes.length) parts.push(`of type ${field.acceptedMimeTypes.join(', ')}`)
  return parts.join(' ')
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}
