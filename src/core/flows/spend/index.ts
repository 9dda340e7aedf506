// The flows that spend money, for the front doors: plan (spends nothing), describe, confirm.
export type { Plan, SendChoices } from './plan'
export { planSubmission } from './plan-submission'
export { planRetryFailed } from './plan-retry'
export { pilotRest, planRestOfPilot } from './plan-rest'
export { describePlan, rowName } from './describe-plan'
export { checkSpendingCap, confirmPlan, DuplicateSubmissionError, PaidBeforeError } from './confirm'
export { validateOnServer, type ProgressHooks, type RowSelection } from './submission-inputs'
