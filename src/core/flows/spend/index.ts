// The flows that spend money, for the front doors: plan (spends nothing), describe, confirm.
export type { Plan, PlanRequest, PlanTargetRequest, LearnedCost, SpendServices } from './plan'
export { planSubmission } from './plan-submission'
export { planRetryFailed } from './plan-retry'
export { learnCostPerRow } from './cost'
export { describePlan, rowName, plural } from './describe-plan'
export {
  checkSpendingCap,
  confirmPlan,
  DuplicateSubmissionError,
  type ConfirmOptions,
  type Confirmed,
} from './confirm'
export {
  selectRows,
  uploadFileCells,
  validateOnServer,
  type ParsedWorkbook,
  type ProgressHooks,
  type ReadWorkbook,
  type RowSelection,
} from './submission-inputs'
export { PlanStore } from './plan-store'
