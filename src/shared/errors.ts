/**
 * The one error model. Every error a user can meet extends UserFacingError: it has a category (what
 * kind of failure it is), a message that says what happened and a next step in the user's words.
 * Neither names a front door's controls (no command-line flag, no button): each front door turns
 * the category, and the optional action, into its own words in one table (src/cli/errors.ts for
 * exit codes and flags, src/core/bridge/errors.ts for the kinds the window shows).
 *
 * It lives in shared because the service contract (shared/contract) raises one of them too; shared
 * stays free of Node and of the DOM.
 */

export const ERROR_CATEGORIES = [
  /** The user's input is wrong: an argument, a form field, a file. */
  'bad-input',
  /** No such environment, run, template, listing or file. */
  'not-found',
  /** No token, or the service did not accept it. */
  'not-signed-in',
  /** Signed in, but this account may not do this. */
  'not-allowed',
  /** Refused, and nothing was done: by the service, or by a rule the user can act on. */
  'refused',
  /** The service cannot be reached, is down, too slow, or answers in a way it should not. */
  'unavailable',
  /** It clashes with the current state (already there, another version, still running). */
  'conflict',
  /** Over a limit: a spending cap, a size, a memory ceiling. */
  'over-limit',
  /** Stopped by the user, or never confirmed. */
  'cancelled',
  /** A bug in Skill Runner. Nothing else may use it. */
  'internal',
] as const

export type ErrorCategory = (typeof ERROR_CATEGORIES)[number]

/**
 * What the user can do next, for the front doors that have a control for it. The message and the
 * next step already say it in plain words; a front door may add how (a flag, a button).
 */
export type ErrorAction =
  /** Confirm the spend (the CLI's --yes, the app's "I agree"). */
  | 'confirm'
  /** Send again something identical that was already accepted (--again). */
  | 'send-again'
  /** Send fewer rows, e.g. a pilot or a range (--pilot N, --rows N-M). */
  | 'send-fewer-rows'
  /** Send a one-row pilot to learn the cost per row. */
  | 'send-pilot'
  /** Give the environment a (new) token. */
  | 'set-token'
  /** Add the environment again with another address. */
  | 'add-environment-again'
  /** Follow the run until it ends (runs watch, the run's detail). */
  | 'watch-run'
  /** Choose another data folder (SKILL_RUNNER_HOME). */
  | 'choose-data-folder'
  /** No secure place to save a token: keep it for this session (SKILL_RUNNER_TOKEN, "this session only"). */
  | 'keep-token-for-session'
  /** Raise or turn off the environment's monthly spending limit. */
  | 'change-monthly-limit'

export abstract class UserFacingError extends Error {
  abstract readonly category: ErrorCategory
  /** What to do next, in words a non-technical user understands. */
  readonly nextStep: string
  readonly action: ErrorAction | undefined

  constructor(
    message: string,
    nextStep: string,
    options?: { cause?: unknown; action?: ErrorAction | undefined },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.nextStep = nextStep
    this.action = options?.action
  }
}

/** "What happened. What to do." for any error. */
export function describeUserError(error: unknown): string {
  if (error instanceof UserFacingError) return `${error.message} ${error.nextStep}`.trim()
  return error instanceof Error ? error.message : String(error)
}
