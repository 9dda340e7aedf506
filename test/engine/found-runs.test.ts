// A run found again in the service's run list for a submission whose answer never came: taken
// only when it is the one run that fits, and the only entry it could be.
import { amountT } from '../../src/shared/format/amounts'
import { describe, expect, it } from 'vitest'
import { findLostAnswers } from '../../src/core/flows/spend/found-runs'
import type { Submission } from '../../src/core/flows/spend/submissions'
import type { RunSummary } from '../../src/shared/contract'
import { runSummary } from '../helpers/run-fixtures'

const SENT_AT_MS = 1_700_000_000_000
const SENT_AT_S = SENT_AT_MS / 1000

function entry(id: number, rowCount: number, over: Partial<Submission> = {}): Submission {
  return {
    id,
    clientRequestId: `req-${id}`,
    environment: 'Sandbox',
    historyKey: 'h',
    targetKind: 'listing',
    targetId: 'ad-copy',
    listingVersionId: 'v3',
    callbackUrl: '',
    inputFilename: 'ads.xlsx',
    inputCopyPath: '',
    inputPath: '',
    fingerprint: '',
    inputSha256: '',
    batchOfRunId: '',
    workbookRows: 0,
    rowCount,
    rows: [],
    rowNumbers: [],
    rowsSha256: '',
    taskFixedFeeT: amountT(4),
    estimatedCostT: amountT(4 * rowCount),
    retryOfRunId: '',
    followUpOfRunId: '',
    batchId: '',
    sendKind: '',
    state: 'sent',
    runId: '',
    answer: null,
    error: '',
    attempts: 1,
    createdAtMs: SENT_AT_MS,
    updatedAtMs: SENT_AT_MS,
    ...over,
  }
}

function listingRun(runId: string, totalTasks: number, createdAtUnix = SENT_AT_S + 1): RunSummary {
  return runSummary({
    runId,
    displayName: '',
    status: 'queued',
    sourceType: 'market',
    templateKey: 'ad-copy',
    templateName: '',
    inputFilename: '',
    totalTasks,
    completedTasks: 0,
    estimatedCostT: 0,
    createdAtUnix,
    startedAtUnix: 0,
    updatedAtUnix: createdAtUnix,
    market: {
      listingId: 'ad-copy',
      listingVersionId: 'v3',
      runId,
      runTransactionId: `txn-${runId}`,
      skillName: 'echo',
      transactionStatus: 'authorized',
      pricingRuleVersion: 'flat-task-fee-1',
      taskFixedFeeT: 4,
      estimatedExecutionCostT: 0,
      actualExecutionCostT: 0,
      estimatedBuyerPayableT: 4 * totalTasks,
      finalBuyerPayableT: 0,
    },
  })
}

const none = () => false

describe('finding the run of a submission whose answer never came', () => {
  it('takes the one run of the same listing, version and row count made after the sending', () => {
    const found = findLostAnswers(
      [entry(1, 2)],
      [listingRun('r-other', 3), listingRun('r1', 2)],
      none,
    )
    expect(found.get(1)).toMatchObject({ runId: 'r1', runTransactionId: 'txn-r1' })
  })

  it('takes nothing when two runs fit, or a run could be either of two entries', () => {
    expect(
      findLostAnswers([entry(1, 2)], [listingRun('a', 2), listingRun('b', 2)], none).size,
    ).toBe(0)
    expect(findLostAnswers([entry(1, 2), entry(2, 2)], [listingRun('a', 2)], none).size).toBe(0)
  })

  it('takes nothing already in the journal, made long before, of another version or file, or for an unsent entry', () => {
    expect(findLostAnswers([entry(1, 2)], [listingRun('a', 2)], (id) => id === 'a').size).toBe(0)
    expect(findLostAnswers([entry(1, 2)], [listingRun('a', 2, SENT_AT_S - 3600)], none).size).toBe(
      0,
    )
    expect(
      findLostAnswers([entry(1, 2, { listingVersionId: 'v2' })], [listingRun('a', 2)], none).size,
    ).toBe(0)
    const named = { ...listingRun('a', 2), inputFilename: 'other.xlsx' }
    expect(findLostAnswers([entry(1, 2)], [named], none).size).toBe(0)
    expect(
      findLostAnswers([entry(1, 2, { state: 'pending' })], [listingRun('a', 2)], none).size,
    ).toBe(0)
  })
})
