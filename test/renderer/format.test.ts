import { describe, expect, it } from 'vitest'
import {
  formatAmount,
  formatUnixTime,
  runCostText,
  runDoneFraction,
  runProgressText,
  statusLabel,
  statusTone,
} from '../../src/shared/format'

const counters = (over: Partial<Parameters<typeof runProgressText>[0]>) => ({
  status: 'succeeded',
  totalTasks: 4,
  completedTasks: 3,
  failedTasks: 1,
  cancelledTasks: 0,
  ...over,
})

describe('run progress', () => {
  it('says how many rows succeeded, then failures and cancellations', () => {
    expect(runProgressText(counters({}))).toBe('3 of 4 rows succeeded, 1 failed')
    expect(runProgressText(counters({ completedTasks: 4, failedTasks: 0 }))).toBe(
      '4 of 4 rows succeeded',
    )
    expect(runProgressText(counters({ totalTasks: 1, completedTasks: 1, failedTasks: 0 }))).toBe(
      '1 of 1 row succeeded',
    )
    expect(
      runProgressText(
        counters({ status: 'cancelled', completedTasks: 1, failedTasks: 0, cancelledTasks: 3 }),
      ),
    ).toBe('1 of 4 rows succeeded, 3 cancelled')
    expect(
      runProgressText(
        counters({ status: 'queued', totalTasks: 0, completedTasks: 0, failedTasks: 0 }),
      ),
    ).toBe('Waiting for rows')
  })

  it('fills the bar with finished rows', () => {
    expect(
      runDoneFraction(counters({ status: 'running', completedTasks: 1, failedTasks: 1 })),
    ).toBe(0.5)
    expect(
      runDoneFraction(
        counters({ status: 'queued', totalTasks: 0, completedTasks: 0, failedTasks: 0 }),
      ),
    ).toBe(0)
  })
})

describe('statuses', () => {
  it('names known statuses and shows unknown ones exactly as sent', () => {
    expect(statusLabel('succeeded')).toBe('Succeeded')
    // A task not started yet reads like its neighbours, never as a lowercase service word.
    expect(statusLabel('pending')).toBe('Waiting')
    expect(statusTone('pending')).toBe('waiting')
    expect(statusLabel('paused_by_operator')).toBe('paused_by_operator')
    expect(statusTone('failed')).toBe('bad')
    expect(statusTone('paused_by_operator')).toBe('unknown')
  })
})

describe('amounts', () => {
  it('shows integers with the unit label, never converted', () => {
    expect(formatAmount(1250, 'credits', 'en-US')).toBe('1,250 credits')
    expect(formatAmount(7, 'tokens', 'en-US')).toBe('7 tokens')
    expect(formatAmount(7, '', 'en-US')).toBe('7 credits')
  })

  it('shows the actual cost once known, otherwise the estimate', () => {
    expect(
      runCostText({ status: 'running', estimatedCostT: 40, actualCostT: 0 }, 'credits', 'en-US'),
    ).toBe('about 40 credits')
    expect(
      runCostText({ status: 'succeeded', estimatedCostT: 40, actualCostT: 30 }, 'credits', 'en-US'),
    ).toBe('30 credits')
    expect(
      runCostText({ status: 'failed', estimatedCostT: 40, actualCostT: 0 }, 'credits', 'en-US'),
    ).toBe('0 credits')
  })
})

describe('times', () => {
  const now = Date.UTC(2025, 2, 12, 15, 0, 0)
  it('reads recent times relatively', () => {
    expect(formatUnixTime(now / 1000 - 10, now)).toBe('just now')
    expect(formatUnixTime(now / 1000 - 300, now)).toBe('5 min ago')
    expect(formatUnixTime(0, now)).toBe('—')
  })
})
