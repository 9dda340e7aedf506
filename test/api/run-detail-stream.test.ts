// A run's detail read as it arrives, in pieces of any size: what it hands on, task by task and
// output by output, is what the whole reading (the contract's schema over JSON.parse) gives, and
// what the whole reading refuses it refuses naming the same field, or stops with a named error.
import { describe, expect, it } from 'vitest'
import { streamFaultOf } from '../../src/core/service/limits'
import { MAX_ITEM_CHARS, RunDetailStream } from '../../src/core/service/run-detail-stream'
import {
  ContractError,
  describeIssues,
  runDetailSchema,
  type RunDetail,
} from '../../src/shared/contract'
import { artifact, market, plain, refused, run, task } from './run-detail-fixtures'

/** Splits `bytes` into pieces of the sizes `next` gives. */
function pieces(bytes: Uint8Array, next: () => number): Uint8Array[] {
  const out: Uint8Array[] = []
  for (let at = 0; at < bytes.length;) {
    const size = Math.max(1, next())
    out.push(bytes.subarray(at, at + size))
    at += size
  }
  return out
}

/** A random size from 1 to 200, the same sequence every run. */
function seeded(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return 1 + (state % 200)
  }
}

const cuts: Record<string, (bytes: Uint8Array) => Uint8Array[]> = {
  whole: (bytes) => [bytes],
  'bytes one by one': (bytes) => pieces(bytes, () => 1),
  'pieces of 7 bytes': (bytes) => pieces(bytes, () => 7),
  'pieces of random sizes': (bytes) => pieces(bytes, seeded(42)),
}

/** The detail as the stream reads it, from `text` cut by `cut`; limits as given. */
function streamed(text: string, cut = cuts.whole!, maxBytes?: number): RunDetail {
  const tasks: RunDetail['tasks'] = []
  const artifacts: RunDetail['artifacts'] = []
  const stream = new RunDetailStream(
    { task: (t) => tasks.push(t), artifact: (a) => artifacts.push(a) },
    maxBytes,
  )
  for (const piece of cut(new TextEncoder().encode(text))) stream.write(piece)
  return { ...stream.end(), tasks, artifacts }
}

function failure(read: () => unknown): unknown {
  try {
    read()
  } catch (error) {
    return error
  }
  throw new Error('it read without an error')
}

describe.each(Object.entries(cuts))('read in %s', (_how, cut) => {
  it('hands on what the whole reading gives, key for key', () => {
    for (const [what, json] of Object.entries(plain)) {
      const whole = runDetailSchema.parse(JSON.parse(JSON.stringify(json)))
      expect(streamed(JSON.stringify(json), cut), what).toStrictEqual(whole)
      expect(JSON.stringify(streamed(JSON.stringify(json, null, 2), cut)), what).toBe(
        JSON.stringify(whole),
      )
    }
  })

  it('refuses what the whole reading refuses, naming the same field first', () => {
    for (const [what, json] of Object.entries(refused)) {
      const whole = runDetailSchema.safeParse(json)
      expect(whole.success, what).toBe(false)
      const error = failure(() => streamed(JSON.stringify(json), cut))
      expect(error, what).toBeInstanceOf(ContractError)
      expect((error as ContractError).issues[0], what).toBe(describeIssues(whole.error!)[0])
    }
  })

  it('reads texts with escapes, quotes and letters of several bytes cut anywhere', () => {
    const inlineText = 'Café "déjà vu" \\ back\\slash \n\t 日本語 😀 \u0000 end\\'
    const json = { run, tasks: [task(0)], artifacts: [{ ...artifact(0), inlineText }] }
    const text = JSON.stringify(json).replace('Caf\u00e9', 'Caf\\u00e9')
    expect(streamed(text, cut)).toStrictEqual(runDetailSchema.parse(JSON.parse(text)))
  })
})

it('an answer cut anywhere is not JSON, as it is not for the whole reading', () => {
  const text = JSON.stringify(plain['every field'])
  for (let end = 1; end < text.length; end += 1) {
    const part = text.slice(0, end)
    expect(() => JSON.parse(part)).toThrow()
    const error = failure(() => streamed(part, cuts['pieces of 7 bytes']))
    expect(streamFaultOf(error), part).toEqual({ kind: 'not-json' })
  }
})

it('text that is not JSON is refused as the whole reading refuses it', () => {
  const broken = [
    '{"run":{"runId":"r","status":"s"},}',
    '{"run" {"runId":"r","status":"s"}}',
    '{"run":{"runId":"r","status":"s"},"next":tru}',
    '{"run":{"runId":"r","status":"s"},"next":01}',
    '{"run":{"runId":"r","status":"s"}}}',
    '{"run":{"runId":"r","status":"s"}} x',
    `{"run":{"runId":"r","status":"s"},"tasks":[${JSON.stringify(task(0))},]}`,
    '{"run":{"runId":"r","status":"s"},"next":[1 2]}',
    '{"run":{"runId":"r","status":"s"},"next":{"a" 1}}',
    ' ',
  ]
  for (const text of broken) {
    expect(() => JSON.parse(text), text).toThrow()
    const error = failure(() => streamed(text, cuts['bytes one by one']))
    expect(streamFaultOf(error), text).toEqual({ kind: 'not-json' })
  }
})

it('an empty answer reads as an empty object: the run is missing', () => {
  const error = failure(() => streamed(''))
  expect((error as ContractError).issues).toEqual(['run is missing'])
})

it('reads past fields it does not know, of any size and shape, without keeping them', () => {
  const huge = 'x'.repeat(MAX_ITEM_CHARS + 10)
  const json = {
    logs: huge,
    run,
    debug: { nested: [[1, 2.5e-3, -0, true, false, null], { a: { b: [huge] } }], text: 'a"b' },
    market,
    tasks: [{ ...task(0), trace: [1, { deep: ['x'] }] }],
    artifacts: [{ ...artifact(0), sizeBytes: 10, labels: ['a'] }],
    after: [huge],
  }
  const text = JSON.stringify(json)
  expect(streamed(text, cuts['pieces of random sizes'])).toStrictEqual(
    runDetailSchema.parse(JSON.parse(text)),
  )
})

it('refuses one output past its bound in words, after handing on the outputs before it', () => {
  const big = { ...artifact(1), inlineText: 'y'.repeat(MAX_ITEM_CHARS) }
  const text = JSON.stringify({ run, tasks: [task(0)], artifacts: [artifact(0), big, artifact(2)] })
  const handed: string[] = []
  const stream = new RunDetailStream({
    task: (t) => handed.push(t.taskId),
    artifact: (a) => handed.push(a.artifactId),
  })
  const error = failure(() => {
    for (const piece of pieces(new TextEncoder().encode(text), () => 65_536)) stream.write(piece)
  })
  expect(streamFaultOf(error)).toEqual({
    kind: 'too-large',
    part: 'one output of a run',
    limitBytes: MAX_ITEM_CHARS,
  })
  expect(handed).toEqual(['task_0', 'art_0'])
})

it('takes an output just within its bound', () => {
  const inlineText = 'z'.repeat(MAX_ITEM_CHARS - 400)
  const json = { run, artifacts: [{ ...artifact(0), inlineText }] }
  expect(streamed(JSON.stringify(json)).artifacts[0]!.inlineText).toBe(inlineText)
})

it('stops past the bound of the whole answer', () => {
  const json = { run, tasks: [task(0), task(1), task(2)] }
  const text = JSON.stringify(json)
  expect(streamed(text, cuts.whole, text.length).tasks).toHaveLength(3)
  const error = failure(() => streamed(text, cuts['pieces of 7 bytes'], text.length - 1))
  expect(streamFaultOf(error)).toMatchObject({ kind: 'too-large', part: "a run's detail" })
})

it('a list sent twice is a named error, not two lists joined', () => {
  const text = `{"run":${JSON.stringify(run)},"tasks":[],"tasks":[]}`
  expect((failure(() => streamed(text)) as ContractError).issues).toEqual(['tasks is sent twice'])
})
