import { describe, expect, it } from 'vitest'
import { paths, runDetailSchema, runListSchema } from '../../src/shared/contract'
import { LISTING_ID, LISTING_VERSION } from '../helpers/buyer-seed'
import { call, useTestSandbox } from '../helpers/sandbox'
import { usageSandbox } from '../helpers/usage-seed'

const created = 1_700_000_000

/** The seed's past runs read back as the service tells of any run: list and detail. */
describe('sandbox: past runs of the seed', () => {
  const sb = useTestSandbox(
    usageSandbox([
      {
        ownerUserId: 2,
        templateId: 'tpl-echo',
        runId: 'run_past_echo',
        inputFilename: 'echo.xlsx',
        rows: 3,
        createdAtUnix: created,
        completedAtUnix: created + 60,
      },
      {
        ownerUserId: 2,
        listingId: LISTING_ID,
        runId: 'run_past_ad',
        rows: 2,
        failedRows: 1,
        createdAtUnix: created + 100,
        completedAtUnix: created + 200,
      },
    ]),
  )

  it('stores a template run and a listing run with their target, counts, costs and times', async () => {
    const list = runListSchema.parse((await call(sb, paths.runs())).body)
    const byId = new Map(list.items.map((r) => [r.runId, r]))
    expect(byId.get('run_past_echo')).toMatchObject({
      displayName: 'Echo (3 rows)',
      status: 'succeeded',
      sourceType: 'official_template',
      templateKey: 'tpl-echo',
      templateName: 'Echo',
      inputFilename: 'echo.xlsx',
      totalTasks: 3,
      completedTasks: 3,
      failedTasks: 0,
      estimatedCostT: 9,
      actualCostT: 9,
      createdAtUnix: created,
      completedAtUnix: created + 60,
    })
    expect(byId.get('run_past_echo')?.market).toBeUndefined()
    expect(byId.get('run_past_ad')).toMatchObject({
      displayName: 'Ad copy (2 rows)',
      status: 'succeeded',
      sourceType: 'market',
      templateKey: LISTING_ID,
      templateName: 'Ad copy',
      totalTasks: 2,
      completedTasks: 1,
      failedTasks: 1,
      estimatedCostT: 8,
      actualCostT: 4,
      firstErrorMessage: 'A row failed in this earlier run.',
      market: {
        listingId: LISTING_ID,
        listingVersionId: LISTING_VERSION,
        runId: 'run_past_ad',
        runTransactionId: 'txn_run_past_ad',
        skillName: 'Ad copy',
        transactionStatus: 'settled',
        pricingRuleVersion: 'flat-task-fee-1',
        taskFixedFeeT: 4,
        estimatedExecutionCostT: 8,
        actualExecutionCostT: 4,
        estimatedBuyerPayableT: 8,
        finalBuyerPayableT: 4,
      },
    })
    const detail = runDetailSchema.parse((await call(sb, paths.run('run_past_ad'))).body)
    expect(detail.tasks.map((t) => t.status)).toEqual(['succeeded', 'failed'])
  })
})
