/**
 * The sandbox's deterministic skills. Each turns one input row into outputs; the scheduler
 * stores the outputs as artifacts. Same row in, same outputs out.
 */
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import type { InputRow, ListingInputSchema, SchemaField } from '../../shared/contract'
import type { AssetRow } from '../db'
import type { SkillName } from './names'

export * from './names'

/** What a skill produced: text (inline or served as a file) or an existing stored blob. */
export interface SkillOutput {
  stepId: string
  portName: string
  mimeType: string
  filename: string
  content: { text: string } | { blobKey: string; sizeBytes: number }
  /** Serve only at accessUrl, never inline (the output is a file, not a message). */
  asFile?: boolean
}

export interface SkillInput {
  row: InputRow
  rowIndex: number
  schema: ListingInputSchema
  /** An uploaded asset of the run's owner. */
  asset: (inputAssetId: string) => AssetRow | undefined
  /** The path of a stored blob, to read an asset's bytes. */
  blobPath: (key: string) => string
}

/** A task failure with the message shown to the user. */
export class TaskFailure extends Error {}

export const FAIL_MARKER = '[[fail]]'
/** A row holding this stays `running` for STALL_MS: a run that stalls, to test how clients say so. */
export const STALL_MARKER = '[[stall]]'
export const STALL_MS = 60 * 60 * 1000

/** The first field whose value (or any item or file text in it) contains `[[fail]]`. */
export function fieldAskingToFail(row: InputRow): string | undefined {
  return fieldWithMarker(row, FAIL_MARKER)
}

/** Whether a row asks to stall (`[[stall]]` in any value). */
export function rowAsksToStall(row: InputRow): boolean {
  return fieldWithMarker(row, STALL_MARKER) !== undefined
}

function fieldWithMarker(row: InputRow, marker: string): string | undefined {
  const contains = (value: unknown): boolean => {
    if (typeof value === 'string') return value.includes(marker)
    if (Array.isArray(value)) return value.some(contains)
    if (typeof value === 'object' && value !== null) return Object.values(value).some(contains)
    return false
  }
  return Object.keys(row).find((key) => contains(row[key]))
}

const TEXT_TYPES = new Set(['string', 'text', 'enum', 'email', 'url'])

function textValues(
  schema: ListingInputSchema,
  row: InputRow,
): { field: SchemaField; text: string }[] {
  const out: { field: SchemaField; text: string }[] = []
  for (const field of schema.fields) {
    if (!TEXT_TYPES.has(field.type)) continue
    const value = row[field.key]
    const items = Array.isArray(value) ? value : [value]
    const text = items
      .filter((v): v is string => typeof v === 'string' && v.trim() !== '')
      .join('\n')
    if (text) out.push({ field, text })
  }
  return out
}

function firstSentence(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  const match = /^(.+?[.!?])(\s|$)/.exec(flat)
  const sentence = match ? match[1]! : flat
  return sentence.length > max ? `${sentence.slice(0, max - 1).trimEnd()}…` : sentence
}

function echo(input: SkillInput): SkillOutput[] {
  const values: Record<string, unknown> = {}
  for (const field of input.schema.fields) {
    if (input.row[field.key] !== undefined) values[field.key] = input.row[field.key]
  }
  const value = { rowIndex: input.rowIndex, values }
  return jsonOutput('echo', 'row', `row-${input.rowIndex + 1}.json`, value)
}

/** A skill's one output: `value` as indented JSON, shown inline. */
function jsonOutput(stepId: string, portName: string, filename: string, value: unknown) {
  const text = `${JSON.stringify(value, null, 2)}\n`
  return [{ stepId, portName, mimeType: 'application/json', filename, content: { text } }]
}

function summarize(input: SkillInput): SkillOutput[] {
  const parts = textValues(input.schema, input.row)
  const words = parts.reduce((sum, p) => sum + p.text.split(/\s+/).filter(Boolean).length, 0)
  const lines = parts.map((p) => `- ${p.field.label || p.field.key}: ${firstSentence(p.text)}`)
  const text = parts.length
    ? `Summary of row ${input.rowIndex + 1} (${words} words in ${parts.length} fields)\n${lines.join('\n')}\n`
    : `Row ${input.rowIndex + 1} has no text to summarize.\n`
  return [
    {
      stepId: 'summarize',
      portName: 'summary',
      mimeType: 'text/plain',
      filename: `summary-${input.rowIndex + 1}.txt`,
      content: { text },
    },
  ]
}

const STOP_WORDS = new Set(
  (
    'the and for are but not you your with this that have from they was were has had can our ' +
    'all any its his her she him them then than there their what when where which who why how ' +
    'will would could should into onto about also just very too more most some such been being ' +
    'did does doing only own same over under again once here each few both other off out http https www com'
  ).split(' '),
)

function keywords(input: SkillInput): SkillOutput[] {
  const counts = new Map<string, number>()
  for (const part of textValues(input.schema, input.row)) {
    for (const word of part.text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      if (word.length < 3 || STOP_WORDS.has(word) || /^\d+$/.test(word)) continue
      counts.set(word, (counts.get(word) ?? 0) + 1)
    }
  }
  const top = [...counts]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, 10)
    .map(([word, count]) => ({ word, count }))
  const value = { rowIndex: input.rowIndex, keywords: top }
  return jsonOutput('keywords', 'keywords', `keywords-${input.rowIndex + 1}.json`, value)
}

function hashFile(path: string): Promise<{ sha256: string; sizeBytes: number }> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256')
    let size = 0
    createReadStream(path)
      .on('data', (chunk) => {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
        size += bytes.length
        hash.update(bytes)
      })
      .on('error', reject)
      .on('end', () => resolve({ sha256: hash.digest('hex'), sizeBytes: size }))
  })
}

async function fileDigest(input: SkillInput): Promise<SkillOutput[]> {
  const outputs: SkillOutput[] = []
  const row = input.rowIndex + 1
  for (const field of input.schema.fields.filter((f) => f.type === 'file')) {
    const value = input.row[field.key]
    const items = Array.isArray(value)
      ? value
      : value === undefined || value === null
        ? []
        : [value]
    let n = 0
    for (const item of items) {
      n += 1
      const suffix = items.length > 1 ? `-${n}` : ''
      const digestOut = (digest: Record<string, unknown>): SkillOutput => ({
        stepId: 'digest',
        portName: field.key,
        mimeType: 'application/json',
        filename: `${field.key}${suffix}-row-${row}.digest.json`,
        content: { text: `${JSON.stringify({ field: field.key, ...digest }, null, 2)}\n` },
      })
      if (typeof item !== 'object' || item === null) continue
      const file = item as { inputAssetId?: unknown; url?: unknown; text?: unknown }
      if (typeof file.inputAssetId === 'string') {
        const asset = input.asset(file.inputAssetId)
        if (!asset)
          throw new TaskFailure(`${field.key}: input asset ${file.inputAssetId} no longer exists.`)
        let digest: { sha256: string; sizeBytes: number }
        try {
          digest = await hashFile(input.blobPath(asset.asset_id))
        } catch {
          throw new TaskFailure(
            `${field.key}: the bytes of input asset ${asset.asset_id} could not be read.`,
          )
        }
        outputs.push(
          digestOut({
            source: 'asset',
            inputAssetId: asset.asset_id,
            filename: asset.filename,
            mimeType: asset.mime_type,
            ...digest,
          }),
          {
            stepId: 'passthrough',
            portName: field.key,
            mimeType: asset.mime_type,
            filename: asset.filename,
            content: { blobKey: asset.asset_id, sizeBytes: digest.sizeBytes },
          },
        )
      } else if (typeof file.text === 'string') {
        const bytes = Buffer.from(file.text, 'utf8')
        const sha256 = createHash('sha256').update(bytes).digest('hex')
        outputs.push(digestOut({ source: 'text', sizeBytes: bytes.length, sha256 }), {
          stepId: 'passthrough',
          portName: field.key,
          mimeType: 'text/plain',
          filename: `${field.key}${suffix}-row-${row}.txt`,
          content: { text: file.text },
          asFile: true,
        })
      } else if (typeof file.url === 'string') {
        const sha256 = createHash('sha256').update(file.url).digest('hex')
        outputs.push(
          digestOut({
            source: 'url',
            url: file.url,
            sha256OfAddress: sha256,
            note: 'The sandbox does not download web addresses; this is a digest of the address itself.',
          }),
        )
      }
    }
  }
  if (outputs.length === 0) {
    throw new TaskFailure('There is no file in this row to digest.')
  }
  return outputs
}

export async function runSkill(name: SkillName, input: SkillInput): Promise<SkillOutput[]> {
  switch (name) {
    case 'echo':
      return echo(input)
    case 'summarize':
      return summarize(input)
    case 'keywords':
      return keywords(input)
    case 'file-digest':
      return fileDigest(input)
  }
}
