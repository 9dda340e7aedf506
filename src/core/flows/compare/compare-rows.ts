/**
 * The pure part of comparing two runs: given each run's rows with their loaded outputs, the
 * matched pairs with every output compared and what differs marked.
 */
import type {
  CompareOutput,
  CompareOutputSide,
  CompareRow,
  CompareRowSide,
} from '../../../shared/bridge'
import { jsonFieldDiff, parsedJson } from './json-diff'
import { matchRows, type RowSide } from './match-rows'
import { wordDiff } from './word-diff'

/** How much of a text output a row of the comparison shows before its diff. */
const PREVIEW_CHARS = 300

export interface LoadedOutput {
  artifactId: string
  portName: string
  mimeType: string
  kind: 'text' | 'json' | 'file'
  /** The text read (text and JSON outputs), '' otherwise. */
  text: string
  truncated: boolean
  sizeBytes: number | null
  /** False when the output was not read (too many, or it could not be): compared by name. */
  read: boolean
}

export interface SideRow extends RowSide {
  side: CompareRowSide
  outputs: LoadedOutput[]
}

/** A row's outputs by port; a port with several outputs gets "name (2)", "name (3)"... */
function byPort(outputs: LoadedOutput[]): Map<string, LoadedOutput> {
  const out = new Map<string, LoadedOutput>()
  for (const output of outputs) {
    const name = output.portName || 'output'
    let key = name
    for (let n = 2; out.has(key); n += 1) key = `${name} (${n})`
    out.set(key, output)
  }
  return out
}

function sideOf(output: LoadedOutput | undefined): CompareOutputSide | null {
  if (!output) return null
  return {
    artifactId: output.artifactId,
    mimeType: output.mimeType,
    sizeBytes: output.sizeBytes,
    preview: output.text.slice(0, PREVIEW_CHARS),
    truncated: output.truncated,
  }
}

/** One port of a matched row: its two outputs, compared as what they are. */
export function compareOutput(
  portName: string,
  a: LoadedOutput | undefined,
  b: LoadedOutput | undefined,
): CompareOutput {
  const base = { portName, a: sideOf(a), b: sideOf(b), words: [], fields: [] }
  if (!a || !b) return { ...base, kind: (a ?? b)!.kind, same: false }
  if (a.kind === 'json' && b.kind === 'json') {
    const x = parsedJson(a.text)
    const y = parsedJson(b.text)
    if (x !== undefined && y !== undefined) {
      const fields = jsonFieldDiff(x, y)
      return { ...base, kind: 'json', fields, same: fields.every((f) => f.state === 'same') }
    }
  }
  if (a.kind !== 'file' && b.kind !== 'file' && a.read && b.read) {
    const same = a.text === b.text && a.truncated === b.truncated
    return { ...base, kind: 'text', words: same ? [] : wordDiff(a.text, b.text), same }
  }
  const same = a.mimeType === b.mimeType && a.sizeBytes === b.sizeBytes && a.sizeBytes !== null
  return { ...base, kind: 'file', same }
}

function pairOf(
  a: SideRow | null,
  b: SideRow | null,
  matchedBy: CompareRow['matchedBy'],
): CompareRow {
  const left = byPort(a?.outputs ?? [])
  const right = byPort(b?.outputs ?? [])
  const ports = [...left.keys(), ...[...right.keys()].filter((p) => !left.has(p))]
  const outputs = a && b ? ports.map((p) => compareOutput(p, left.get(p), right.get(p))) : []
  const statusDiffers = !!a && !!b && a.side.status !== b.side.status
  const failedInOne =
    !!a && !!b && (a.side.status === 'succeeded') !== (b.side.status === 'succeeded')
  return {
    a: a?.side ?? null,
    b: b?.side ?? null,
    matchedBy,
    inputs: a?.inputs ?? b?.inputs ?? null,
    differs: !a || !b || statusDiffers || outputs.some((o) => !o.same),
    failedInOne,
    outputs,
  }
}

export function compareRows(a: SideRow[], b: SideRow[]): CompareRow[] {
  return matchRows(a, b).map((pair) => pairOf(pair.a, pair.b, pair.matchedBy))
}
