// Plans wait for a confirmation for a bounded time and in a bounded number; a plan that is gone
// cannot be confirmed, and its temporary copy of a browser's workbook and the spill file of its
// rows go with it.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { PlanStore } from '../../src/core/flows/spend/plan-store'

const plan = (id: string, expiresAtMs: number, scratch?: string) => ({ id, expiresAtMs, scratch })

it('keeps plans for a while and a few at a time, then says they expired', async () => {
  let now = 1000
  const store = new PlanStore<ReturnType<typeof plan>>(60_000, 2, () => now)
  const scratch = mkdtempSync(join(tmpdir(), 'sr-plan-'))
  writeFileSync(join(scratch, 'book.xlsx'), 'x')
  store.add(plan('a', now + 60_000, scratch))
  store.add(plan('b', now + 60_000))
  expect(store.get('a').id).toBe('a')
  // A third plan pushes the oldest out (and its scratch folder is removed).
  store.add(plan('c', now + 60_000))
  expect(() => store.get('a')).toThrow(/expired or was already used/)
  await store.scratchRemoved()
  expect(existsSync(scratch)).toBe(false)
  expect(store.get('b').id).toBe('b')
  now += 60_001
  expect(() => store.get('b')).toThrow(/Check the workbook again|expired/)
  expect(() => store.get('c')).toThrow()
})

it('removes the spill file of a plan that expires unconfirmed', () => {
  let now = 1000
  const store = new PlanStore<{ id: string; expiresAtMs: number; rows: { spillPath: string } }>(
    60_000,
    4,
    () => now,
  )
  const spillPath = join(mkdtempSync(join(tmpdir(), 'sr-plan-')), 'rows.jsonl')
  writeFileSync(spillPath, '{}\n', { mode: 0o600 })
  store.add({ id: 'a', expiresAtMs: now + 60_000, rows: { spillPath } })
  expect(existsSync(spillPath)).toBe(true)
  now += 60_001
  expect(() => store.get('a')).toThrow(/expired/)
  // At once, not after the disk answers: a command line may end right after.
  expect(existsSync(spillPath)).toBe(false)
})
