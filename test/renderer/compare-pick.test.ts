// The compare picker takes a run by the name the runs list shows it under, not only by its id.
import { describe, expect, it } from 'vitest'
import { runNamed } from '../../src/renderer/compare/run-named'
import { runWords } from '../../src/renderer/runs/run-view'
import type { RunSummary } from '../../src/shared/contract'

const run = (runId: string, inputFilename: string, createdAtUnix: number) =>
  ({ runId, templateName: 'Row echo', inputFilename, createdAtUnix }) as RunSummary

describe('runNamed', () => {
  const runs = [
    run('run_a1', 'march.xlsx', 1_790_000_000),
    run('run_b2', 'april.xlsx', 1_790_100_000),
  ]
  it('finds a run by its shown name, a part only it has, or its id', () => {
    expect(runNamed(runs, runWords(runs[1]!))).toBe('run_b2')
    expect(runNamed(runs, ` ${runWords(runs[0]!).toUpperCase()} `)).toBe('run_a1')
    expect(runNamed(runs, 'april')).toBe('run_b2')
    expect(runNamed(runs, 'run_a1')).toBe('run_a1')
  })
  it('finds none when no run or several fit', () => {
    expect(runNamed(runs, 'Row echo')).toBe('')
    expect(runNamed(runs, 'may.xlsx')).toBe('')
  })
})
