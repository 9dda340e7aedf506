import { describe, expect, it } from 'vitest'
import type { BridgeApi, DownloadResultView } from '../../src/shared/bridge'
import { BridgeError } from '../../src/shared/bridge'
import { createSavesStore, saveText } from '../../src/renderer/stores/saves-store'

function apiAnswering(answer: () => Promise<DownloadResultView | null>) {
  return { downloadRun: answer } as unknown as BridgeApi
}

describe('saving outputs', () => {
  it('shows progress from events, then the result', async () => {
    let finish!: (v: DownloadResultView) => void
    const store = createSavesStore(apiAnswering(() => new Promise((r) => (finish = r))))
    const saving = store.getState().save('Sandbox', 'run_1')
    expect(saveText(store.getState().byRun.run_1)).toBe('Saving…')
    store.getState().applyProgress({
      environment: 'Sandbox',
      runId: 'run_1',
      doneFiles: 2,
      totalFiles: 5,
      receivedBytes: 10,
    })
    expect(saveText(store.getState().byRun.run_1)).toBe('Saving 2 of 5…')
    finish({
      environment: 'Sandbox',
      runId: 'run_1',
      folder: '/d/run_1',
      savedFiles: 4,
      skippedFiles: 0,
      failed: [{ artifactId: 'a', message: 'cut', nextStep: 'again' }],
    })
    await saving
    expect(saveText(store.getState().byRun.run_1)).toBe(
      'Saved 4 files; 1 failed (save again to retry)',
    )
  })

  it('a cancelled folder choice leaves nothing; an error says what happened', async () => {
    const cancelled = createSavesStore(apiAnswering(async () => null))
    await cancelled.getState().save('Sandbox', 'run_2')
    expect(saveText(cancelled.getState().byRun.run_2)).toBe('')
    const failing = createSavesStore(
      apiAnswering(async () => {
        throw new BridgeError({
          code: 'unreachable',
          message: 'The service cannot be reached.',
          nextStep: 'Check the network.',
        })
      }),
    )
    await failing.getState().save('Sandbox', 'run_3')
    expect(saveText(failing.getState().byRun.run_3)).toBe(
      'Not saved: The service cannot be reached.',
    )
  })
})
