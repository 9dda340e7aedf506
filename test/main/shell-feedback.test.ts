import { describe, expect, it } from 'vitest'
import {
  createShellFeedback,
  runEndedNotification,
  taskbarProgress,
} from '../../src/main/shell-feedback'
import type { RunSummary } from '../../src/shared/contract'
import { runSummary } from '../helpers/run-fixtures'

const run = (over: Partial<RunSummary>): RunSummary =>
  runSummary({
    displayName: 'Product descriptions',
    status: 'succeeded',
    templateKey: '',
    templateName: '',
    inputFilename: 'products.xlsx',
    totalTasks: 4,
    completedTasks: 3,
    failedTasks: 1,
    actualCostT: 30,
    firstErrorMessage: 'Row 3: the field "url" is not a web address',
    createdAtUnix: 1,
    startedAtUnix: 1,
    completedAtUnix: 2,
    updatedAtUnix: 2,
    ...over,
  })

describe('taskbar progress', () => {
  it('shows the share of finished tasks while runs are active, and nothing otherwise', () => {
    expect(taskbarProgress({ activeRuns: 0, doneTasks: 0, totalTasks: 0 })).toBe(-1)
    expect(taskbarProgress({ activeRuns: 2, doneTasks: 3, totalTasks: 4 })).toBe(0.75)
    expect(taskbarProgress({ activeRuns: 1, doneTasks: 0, totalTasks: 0 })).toBe(0)
  })

  it('updates every open window', () => {
    const bars: number[] = []
    const feedback = createShellFeedback({
      windows: () => [{ isDestroyed: () => false, setProgressBar: (p) => void bars.push(p) }],
      notify: () => {},
    })
    feedback.onActivity({ activeRuns: 1, doneTasks: 1, totalTasks: 2 })
    feedback.onActivity({ activeRuns: 0, doneTasks: 0, totalTasks: 0 })
    expect(bars).toEqual([0.5, -1])
  })
})

describe('run ended notification', () => {
  it('says how the run ended and how many rows succeeded', () => {
    expect(
      runEndedNotification({ environment: 'Sandbox', unitLabel: 'credits', run: run({}) }),
    ).toEqual({
      // The service calls it succeeded; one row failed, and the notification says so.
      title: 'Finished with 1 failed (3 of 4 succeeded): Product descriptions',
      body: '3 of 4 rows succeeded, 1 failed. First error: Row 3: the field "url" is not a web address (Sandbox)',
    })
    const whole = runEndedNotification({
      environment: 'Sandbox',
      unitLabel: 'credits',
      run: run({ completedTasks: 4, failedTasks: 0, firstErrorMessage: '' }),
    })
    expect(whole).toEqual({
      title: 'Run finished: Product descriptions',
      body: '4 of 4 rows succeeded (Sandbox)',
    })
    const failed = runEndedNotification({
      environment: 'Prod',
      unitLabel: 'credits',
      run: run({ status: 'failed', completedTasks: 0, failedTasks: 4 }),
    })
    expect(failed.title).toBe('Run failed: Product descriptions')
    expect(failed.body).toContain('First error: Row 3')
  })
})

describe('which ended runs notify', () => {
  it('asks the setting and the device: only runs started here, only while notifications are on', () => {
    const shown: string[] = []
    let notificationsOn = true
    const mine = new Set(['run-1'])
    const feedback = createShellFeedback({
      windows: () => [],
      notify: (content) => void shown.push(content.title),
      shouldNotify: (event) => notificationsOn && mine.has(event.run.runId),
    })
    feedback.onRunEnded({ environment: 'Sandbox', unitLabel: 'credits', run: run({}) })
    feedback.onRunEnded({
      environment: 'Sandbox',
      unitLabel: 'credits',
      run: run({ runId: 'run-elsewhere', displayName: 'Not mine' }),
    })
    notificationsOn = false
    feedback.onRunEnded({ environment: 'Sandbox', unitLabel: 'credits', run: run({}) })
    expect(shown).toEqual(['Finished with 1 failed (3 of 4 succeeded): Product descriptions'])
  })
})
