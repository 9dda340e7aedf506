// The runs this device has seen (storage/tables/runs-seen.ts), on real SQLite: a page of runs is
// saved in one statement, and what is read back is each run's latest summary exactly as given.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openDb } from '../../src/core/storage/db'
import { RunsSeenTable } from '../../src/core/storage/tables/runs-seen'
import { runSummary } from '../helpers/run-fixtures'

describe('runs seen', () => {
  const db = openDb(join(mkdtempSync(join(tmpdir(), 'sr-runs-seen-')), 'history.db'))
  const seen = new RunsSeenTable(db)

  it('keeps the latest summary of each run, its text as given', () => {
    const named = runSummary({
      runId: 'run-a',
      status: 'running',
      displayName: 'Catalogue “spring”, \\ part 1 — 👟',
    })
    seen.upsert('h1', [named, runSummary({ runId: 'run-b', status: 'queued' })], 1000)
    expect(seen.summary('h1', 'run-a')).toEqual(named)

    // A later page: run-a ended, and a list that names a run twice keeps the last.
    const ended = { ...named, status: 'succeeded' as const, updatedAtUnix: named.updatedAtUnix + 5 }
    seen.upsert('h1', [runSummary({ runId: 'run-b', status: 'running' }), ended], 2000)
    seen.upsert('h1', [], 3000)
    expect(seen.summary('h1', 'run-a')).toEqual(ended)
    expect(seen.summary('h1', 'run-b')?.status).toBe('running')
    expect(seen.summary('h2', 'run-a')).toBeNull()
    expect(seen.finishedOf('h1', { templateKey: ended.templateKey }, 5)).toEqual([ended])
  })
})
