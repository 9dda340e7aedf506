// A part's rows as the journal keeps them (one line a row, sent as those texts): a part sent but
// not answered when the engine closes goes again from a new engine with the same bytes under the
// same request id (one run); a redo of a part's row reads the journal once the plan's spill file
// is gone; rows damaged in the journal stop the send with a named error and nothing crosses the
// wire, and the same rows confirmed again go as a new request. Through a recording relay in
// front of the real sandbox, on real SQLite. An entry journaled before (its rows one text) goes
// again with those rows.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Engine } from '../../src/core/engine'
import type { Connection } from '../../src/core/environments/connection'
import { confirmPlan, planSubmission } from '../../src/core/flows/spend'
import { RowsNotResendableError } from '../../src/core/flows/spend/journal-rows'
import { planRedo } from '../../src/core/flows/spend/plan-redo'
import type { ReadSheet } from '../../src/core/flows/spend/set-aside'
import { openDb } from '../../src/core/storage/db'
import { parseInputWorkbook } from '../../src/core/workbooks'
import { testEngine } from '../helpers/engine'
import { startRelay, type Relay } from '../helpers/relay'
import { useTestSandbox } from '../helpers/sandbox'

const sandbox = useTestSandbox({ maxRows: 5 })
const home = mkdtempSync(join(tmpdir(), 'sr-journal-rows-'))
const csv = join(home, 'catalogue.csv')
const other = join(home, 'other.csv')
const target = { kind: 'template' as const, templateId: 'row-echo' }
let relay: Relay

const read: ReadSheet = (path, schema, more = {}) =>
  parseInputWorkbook({ path }, schema, { ...more, keepRows: true, checkFiles: true })

/** An engine on the test's home, connected through the relay, 5 rows a request. */
async function openEngine(): Promise<{ engine: Engine; connection: Connection }> {
  const engine = testEngine(home, { tokenOverride: sandbox.token })
  if (!engine.environments.find('Relayed'))
    await engine.addEnvironment({ name: 'Relayed', baseUrl: relay.url })
  const connection = await engine.connect({ env: 'Relayed' })
  engine.rowLimits.set(connection.historyKey, 5)
  return { engine, connection }
}

type Body = { clientRequestId: string; rows: { message: string }[] }
const body = (n: number) => JSON.parse(relay.sent[n - 1]!) as Body

beforeAll(async () => {
  relay = await startRelay(sandbox.url)
  const names = Array.from({ length: 12 }, (_, i) => `Row ${i + 1} “with a comma, and quotes”`)
  writeFileSync(csv, ['Message', ...names.map((n) => `"${n.replaceAll('"', '""')}"`)].join('\n'))
  writeFileSync(
    other,
    ['Message', ...names.slice(0, 10).map((n) => `Other ${n.length}`)].join('\n'),
  )
})
afterAll(async () => {
  await relay?.close()
})

describe('rows kept by the journal', () => {
  it('a part sent but not answered when the engine closes goes again with the same bytes and id', async () => {
    const first = await openEngine()
    const plan = await planSubmission(first.engine, first.connection, read, { file: csv, target })
    // The second part reaches the service, which makes its run; the engine is gone before the
    // answer comes back.
    const gone = new AbortController()
    relay.onRun = (n) => {
      if (n === 2) gone.abort()
    }
    await expect(
      confirmPlan(first.engine, plan, { confirmed: true }, { signal: gone.signal }),
    ).rejects.toThrow()
    relay.onRun = undefined
    const unanswered = first.engine.submissions.unanswered(first.connection.historyKey)
    await first.engine.close()
    expect(unanswered.map((e) => e.clientRequestId)).toEqual([body(2).clientRequestId])
    expect(relay.sent).toHaveLength(2)

    const { engine, connection } = await openEngine()
    try {
      const again = await planSubmission(engine, connection, read, { file: csv, target })
      const spill = again.rows.spillPath!
      const done = await confirmPlan(engine, again, { confirmed: true })
      // Part 1 is not sent again; part 2 goes with the bytes it went with; then part 3.
      expect(relay.sent).toHaveLength(4)
      expect(relay.sent[2]).toBe(relay.sent[1])
      expect(done.parts.map((p) => p.clientRequestId)).toEqual(
        [1, 2, 4].map((n) => body(n).clientRequestId),
      )
      expect(body(2).rows.map((r) => r.message)).toEqual(
        [6, 7, 8, 9, 10].map((i) => `Row ${i} “with a comma, and quotes”`),
      )
      const runs = await connection.client.listRuns({ pageSize: 50 })
      expect(runs.items).toHaveLength(3)
      expect(new Set(done.parts.map((p) => p.runId))).toEqual(
        new Set(runs.items.map((r) => r.runId)),
      )

      // The plan's spill file is gone with it: a redo of sheet row 8 (part 2) reads the journal.
      expect(existsSync(spill)).toBe(false)
      const redo = await planRedo(engine, connection, done.parts[1]!.runId, [8])
      await confirmPlan(engine, redo, { confirmed: true })
      expect(relay.sent).toHaveLength(5)
      expect(body(5).rows).toEqual([body(2).rows[1]])
    } finally {
      await engine.close()
    }
  })

  it('rows damaged in the journal: a named error, nothing sent, and the rows go again as a new request', async () => {
    const first = await openEngine()
    const plan = await planSubmission(first.engine, first.connection, read, { file: other, target })
    const gone = new AbortController()
    const before = relay.sent.length
    relay.onRun = (n) => {
      if (n === before + 1) gone.abort()
    }
    await expect(
      confirmPlan(first.engine, plan, { confirmed: true }, { signal: gone.signal }),
    ).rejects.toThrow()
    relay.onRun = undefined
    const [entry] = first.engine.submissions.unanswered(first.connection.historyKey)
    await first.engine.close()

    // One row's text changed on disk (a damaged file, or a hand edit).
    const db = openDb(join(home, 'history.db'))
    db.prepare(
      `UPDATE submission_rows SET row_json = '{"message":"not what was sent"}' WHERE submission_id = ? AND row_index = 3`,
    ).run(entry!.id)
    db.close()

    const { engine, connection } = await openEngine()
    try {
      const again = await planSubmission(engine, connection, read, { file: other, target })
      const refused = await confirmPlan(engine, again, { confirmed: true }).catch((e: unknown) => e)
      expect(refused).toBeInstanceOf(RowsNotResendableError)
      expect((refused as RowsNotResendableError).message).toContain(entry!.clientRequestId)
      expect((refused as RowsNotResendableError).nextStep).toMatch(/pay for them twice/)
      expect(relay.sent).toHaveLength(before + 1)
      expect(engine.submissions.head(entry!.id).state).toBe('refused')

      const fresh = await planSubmission(engine, connection, read, { file: other, target })
      const done = await confirmPlan(engine, fresh, { confirmed: true })
      expect(done.parts[0]!.clientRequestId).not.toBe(entry!.clientRequestId)
      expect(relay.sent.slice(before + 1).map((t) => JSON.parse(t).rows.length)).toEqual([5, 5])
    } finally {
      await engine.close()
    }
  })

  it('an entry journaled before, its rows one text (rows_json), goes again with those rows', async () => {
    const { engine, connection } = await openEngine()
    try {
      const rows = [{ message: 'kept “as one text”' }, { message: 'and another' }]
      const db = openDb(join(home, 'history.db'))
      db.prepare(
        `INSERT INTO submissions (client_request_id, environment, origin, target_kind, target_id,
           fingerprint, row_count, rows_json, state, created_at_ms, updated_at_ms)
         VALUES ('journaled-before-1', 'Relayed', ?, 'template', 'row-echo', 'before', 2, ?, 'sent', 1, 1)`,
      ).run(connection.historyKey, JSON.stringify(rows))
      db.close()
      const before = relay.sent.length
      const [done] = await engine.submissions.resendUnanswered(connection)
      expect(done?.state).toBe('accepted')
      expect(relay.sent.slice(before)).toEqual([
        JSON.stringify({ clientRequestId: 'journaled-before-1', rows }),
      ])
      expect(engine.submissions.byRun(connection.historyKey, done!.runId)?.rows).toEqual(rows)
    } finally {
      await engine.close()
    }
  })

  it('a part on its way is neither listed as unanswered nor sent beside itself', async () => {
    const { engine, connection } = await openEngine()
    try {
      const third = join(home, 'third.csv')
      writeFileSync(third, ['Message', ...Array.from({ length: 8 }, (_, i) => `Third ${i}`)].join('\n'))
      const plan = await planSubmission(engine, connection, read, { file: third, target })
      const before = relay.sent.length
      const seen: { listed: string[]; again: Promise<unknown>[] }[] = []
      relay.onRun = () => {
        // The service has made the part's run; its answer is not back yet.
        const [onItsWay] = engine.submissions
          .partsOf(connection.historyKey, plan.fingerprint)
          .filter((part) => part.state === 'sent')
        seen.push({
          listed: engine.submissions.unanswered(connection.historyKey).map((e) => e.clientRequestId),
          again: [
            engine.submissions.resendUnanswered(connection),
            engine.submissions.send(connection, onItsWay!),
          ],
        })
      }
      const done = await confirmPlan(engine, plan, { confirmed: true })
      relay.onRun = undefined
      expect(done.parts).toHaveLength(2)
      expect(seen.map((s) => s.listed)).toEqual([[], []])
      const [resent, sentAgain] = await Promise.all(seen[0]!.again)
      expect(resent).toEqual([])
      expect((sentAgain as { runId: string }).runId).toBe(done.parts[0]!.runId)
      // One request a part: nothing went twice.
      expect(relay.sent.length - before).toBe(2)
    } finally {
      await engine.close()
    }
  })
})
