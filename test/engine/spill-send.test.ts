// A sheet's rows read into a spill file and sent as parts: each part's request, as it crosses the
// wire to the real sandbox (through a recording relay on 127.0.0.1), holds byte for byte what the
// whole-body path sent (JSON.stringify of its request id and the rows read into memory), a lost
// answer is sent again with the same bytes and the same request id, the plan's fingerprint is
// the in-memory plan's, and the spill file is the user's alone and gone once the parts are sent.
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Engine } from '../../src/core/engine'
import { confirmPlan, planSubmission } from '../../src/core/flows/spend'
import type { SpendServices } from '../../src/core/flows/spend/plan'
import type { ReadSheet } from '../../src/core/flows/spend/set-aside'
import type { Connection } from '../../src/core/environments/connection'
import { parseInputWorkbook } from '../../src/core/workbooks'
import { testEngine } from '../helpers/engine'
import { startRelay, type Relay } from '../helpers/relay'
import { useTestSandbox } from '../helpers/sandbox'

const sandbox = useTestSandbox({ maxRows: 5 })
const home = mkdtempSync(join(tmpdir(), 'sr-spill-send-'))
let engine: Engine
let connection: Connection

let relay: Relay

/** The front doors' reader: it passes on what the plan asks (a spill file among it). */
const read: ReadSheet = (path, schema, more = {}) =>
  parseInputWorkbook({ path }, schema, { ...more, keepRows: true, checkFiles: true })

beforeAll(async () => {
  relay = await startRelay(sandbox.url)
  engine = testEngine(home, { tokenOverride: sandbox.token })
  await engine.addEnvironment({ name: 'Relayed', baseUrl: relay.url })
  connection = await engine.connect({ env: 'Relayed' })
  engine.rowLimits.set(connection.historyKey, 5)
})
afterAll(async () => {
  await engine?.close()
  await relay?.close()
})

describe('a sheet sent from its spill file', () => {
  it('sends each part byte for byte as the whole-body path, a lost answer again with the same bytes and id', async () => {
    const csv = join(home, 'catalogue.csv')
    const names = Array.from({ length: 12 }, (_, i) => `Ürün ${i + 1} “quoted, with a comma”`)
    writeFileSync(csv, ['Message', ...names.map((n) => `"${n.replaceAll('"', '""')}"`)].join('\n'))
    const target = { kind: 'template' as const, templateId: 'row-echo' }

    // The rows as the whole-body path held them: read into memory, no spill folder.
    const inMemory: SpendServices = {
      history: engine.history,
      submissions: engine.submissions,
      schemas: engine.schemas,
      uploads: engine.uploads,
      plans: engine.plans,
      batches: engine.batches,
      rowLimits: engine.rowLimits,
    }
    const memoryPlan = await planSubmission(inMemory, connection, read, { file: csv, target })
    expect(memoryPlan.rows.spillPath).toBeUndefined()
    const rows = await memoryPlan.rows.slice(0, memoryPlan.rows.length)
    engine.plans.drop(memoryPlan.id)

    const plan = await planSubmission(engine, connection, read, { file: csv, target })
    const spill = plan.rows.spillPath!
    expect(statSync(spill).mode & 0o777).toBe(0o600)
    expect(plan.fingerprint).toBe(memoryPlan.fingerprint)
    expect(plan.parts?.parts.map((p) => [p.start, p.end])).toEqual([
      [0, 5],
      [5, 10],
      [10, 12],
    ])

    // The second part's first answer is lost: the transport sends it again.
    const { sent } = relay
    relay.dropAnswers.add(2)
    const done = await confirmPlan(engine, plan, { confirmed: true })
    expect(done.parts).toHaveLength(3)
    expect(sent).toHaveLength(4)
    const expected = done.parts.map((part, i) =>
      JSON.stringify({ clientRequestId: part.clientRequestId, rows: rows.slice(i * 5, i * 5 + 5) }),
    )
    expect([sent[0], sent[1], sent[3]]).toEqual(expected)
    // The re-send: the same bytes, so the same request id, and one run made of it.
    expect(sent[2]).toBe(sent[1])
    expect(new Set(done.parts.map((p) => p.runId)).size).toBe(3)
    expect(existsSync(spill)).toBe(false)
  })
})
