// Send is blocked, with the reason beside it, for a listing that cannot be run now (retired,
// not on sale, unavailable), however it was chosen (the list, a pasted link).
import { describe, expect, it } from 'vitest'
import { sendBlocker } from '../../src/renderer/stores/prepare/send-blocker'
import type { PrepareData } from '../../src/renderer/stores/prepare/prepare-state'
import type { ListingView, WorkbookCheckView } from '../../src/shared/bridge'

const check = {
  valid: true,
  rowCount: 2,
  fileErrors: [],
  problems: [],
  fileCells: [],
  target: { kind: 'listing', listingId: 'faq', listingVersionId: 'v1', name: 'FAQ builder' },
} as unknown as WorkbookCheckView

const state = (executable: boolean) =>
  ({
    checkState: 'done',
    checkError: null,
    check,
    uploading: false,
    uploads: [],
    folder: new Map(),
    callbackUrl: '',
    listing: { executable } as ListingView,
  }) as unknown as PrepareData

describe('a listing that cannot be run now', () => {
  it('blocks Send and says why', () => {
    expect(sendBlocker(state(false))).toMatch(/^This listing cannot be run now/)
    expect(sendBlocker(state(true))).toBeNull()
  })
})
