/**
 * A run's detail read as it arrives. A run of 100,000 rows with inline outputs answers with a
 * detail of hundreds of MB: more than any answer is read whole (limits.ts). Here the answer goes
 * through an incremental scanner (json-scanner.ts) and each task and each output is parsed on its
 * own, by the same rules as the whole reading (run-detail-reader.ts, then the contract's schema
 * for what it cannot tell), and handed to a sink the moment it is whole. Nothing else of the
 * answer is kept: fields this app does not know are read past, whatever their size.
 *
 * Each part has its own bound, and the whole answer one more:
 * - a task or an output: MAX_ITEM_CHARS of its JSON. An inline output past it is refused, with
 *   the whole detail, in words: cutting it would save a file that is not the service's output,
 *   and a service sends content that large as a file to download (its accessUrl).
 * - the run's summary and market: MAX_HEAD_CHARS each.
 * - the whole answer: MAX_DETAIL_BYTES, far above a run of 100,000 rows with 2 KB outputs.
 *
 * An error names the first field at fault, as the whole reading names it (a test holds the two
 * readings equal); a reading that stops at a fault has handed on the parts before it.
 *
 * Pace, measured on a shared two-core machine in 64 KB pieces: a 44 MB detail of 10,000 rows with
 * 4 KB plain-text outputs in 0.8 to 1.1 s (JSON.parse of the same text whole: about 0.5 s); an
 * 85 MB one whose outputs are JSON full of escaped quotes in 2.6 to 3.8 s (each quote is one
 * search, and such outputs have one every few characters).
 */
import * as z from 'zod'
import {
  ContractError,
  artifactSchema,
  describeIssues,
  runDetailSchema,
  runTaskSchema,
  type Artifact,
  type RunDetail,
  type RunTask,
} from '../../shared/contract'
import { JsonScanner } from './json-scanner'
import { stopStream } from './limits'
import { plainArtifact, plainTask } from './run-detail-reader'

/** The longest task or output read, in characters of its JSON (an inline text is most of it). */
export const MAX_ITEM_CHARS = 8 * 1024 * 1024
/** The longest run summary or market context read, in characters of its JSON. */
const MAX_HEAD_CHARS = 1024 * 1024
/** The largest run detail read, in bytes as sent (unpacked). */
export const MAX_DETAIL_BYTES = 1024 * 1024 * 1024

/** Where a streamed detail's tasks and outputs go, one by one, in the order they came. */
export interface RunDetailSink {
  task(task: RunTask): void
  artifact(artifact: Artifact): void
}

/** A sink that keeps nothing of a detail's tasks and outputs: for a run's summary alone. */
export const keepNoParts: RunDetailSink = { task: () => {}, artifact: () => {} }

/** A detail without its tasks and outputs: the run's summary, and its market when it was sent. */
export type RunDetailHead = Pick<RunDetail, 'run' | 'market'>

const { shape } = runDetailSchema
type ListKey = 'tasks' | 'artifacts'
const isList = (key: string): key is ListKey => key === 'tasks' || key === 'artifacts'

/** A value the schema must read: the first issue named under `path`, as the whole parse names it. */
function bySchema<T>(schema: z.ZodType<T>, value: unknown, path: (string | number)[]): T {
  const read = schema.safeParse(value)
  if (read.success) return read.data
  const issues = read.error.issues.map((issue) => ({ ...issue, path: [...path, ...issue.path] }))
  throw new ContractError('a run detail', describeIssues(new z.ZodError(issues)))
}

/** A value of the same JSON type as the one starting with `first`, for the schema's words. */
function standIn(first: string): unknown {
  if (first === '[') return []
  if (first === '"') return ''
  if (first === 't' || first === 'f') return true
  if (first === 'n') return null
  return 0
}

export class RunDetailStream {
  private readonly scanner: JsonScanner
  private readonly decoder = new TextDecoder()
  private bytes = 0
  /** The outer object's key whose value is read now. */
  private key = ''
  /** The list whose items are handed on now, and the next item's index in it. */
  private list: ListKey | null = null
  private index = 0
  private readonly listsSeen = new Set<ListKey>()
  private run: unknown = undefined
  private market: { value: unknown } | undefined

  constructor(
    private readonly sink: RunDetailSink,
    private readonly maxBytes = MAX_DETAIL_BYTES,
  ) {
    this.scanner = new JsonScanner({
      starts: (depth, first) => this.starts(depth, first),
      value: (depth, text) => this.value(depth, text),
      key: (name) => {
        this.key = name
        this.list = null
      },
      tooLarge: (depth, limit) => this.tooLarge(depth, limit),
    })
  }

  /** Reads the next bytes of the answer; throws at the first fault (see the header). */
  write(bytes: Uint8Array): void {
    this.bytes += bytes.length
    if (this.bytes > this.maxBytes) throw tooLarge("a run's detail", this.maxBytes)
    this.scanner.write(this.decoder.decode(bytes, { stream: true }))
  }

  /** The answer has ended: its run's summary and market, once the whole answer was good. */
  end(): RunDetailHead {
    const rest = this.decoder.decode()
    // An empty answer reads as an empty object, as every other answer does (answers.ts).
    if (this.bytes === 0) this.scanner.write('{}')
    if (rest) this.scanner.write(rest)
    this.scanner.end()
    const run = bySchema(shape.run, this.run, ['run'])
    if (!this.market) return { run } as RunDetailHead
    return { run, market: bySchema(shape.market, this.market.value, ['market']) }
  }

  /** The part a value at `depth` is, in a message's words, past its bound. */
  private tooLarge(depth: number, limit: number): Error {
    if (depth === 2) return tooLarge(partWords(this.list), limit)
    return tooLarge(depth === 1 ? "a run's summary" : 'a field name', limit)
  }

  private starts(depth: number, first: string): number {
    if (depth === 0) {
      if (first !== '{') bySchema(runDetailSchema, standIn(first), [])
      return 0
    }
    if (depth === 2) return this.list ? MAX_ITEM_CHARS : 0
    if (depth !== 1) return 0
    const key = this.key
    if (isList(key)) {
      if (this.listsSeen.has(key)) throw new ContractError('a run detail', [`${key} is sent twice`])
      this.listsSeen.add(key)
      if (first === '[') {
        this.list = key
        this.index = 0
        return 0
      }
      return MAX_HEAD_CHARS
    }
    return key === 'run' || key === 'market' ? MAX_HEAD_CHARS : 0
  }

  private value(depth: number, text: string): void {
    const json = parse(text)
    if (depth === 2) return this.item(json)
    if (this.key === 'run') this.run = json
    else if (this.key === 'market') this.market = { value: json }
    else if (isList(this.key)) bySchema<unknown[]>(shape[this.key], json, [this.key])
  }

  private item(json: unknown): void {
    const path = [this.list!, this.index++]
    if (this.list === 'tasks')
      this.sink.task(plainTask(json) ?? bySchema(runTaskSchema, json, path))
    else this.sink.artifact(plainArtifact(json) ?? bySchema(artifactSchema, json, path))
  }
}

function tooLarge(part: string, limitBytes: number): Error {
  return stopStream({ kind: 'too-large', part, limitBytes })
}

function partWords(list: ListKey | null): string {
  return list === 'tasks' ? "one row's task in a run" : 'one output of a run'
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw stopStream({ kind: 'not-json' })
  }
}
