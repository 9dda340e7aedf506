/**
 * The engine's errors. The base, UserFacingError, is in src/shared/errors.ts (the service contract
 * raises one too); every error a user can meet extends it with a category, and each front door
 * maps the category to its own words in one table. Errors outside this base are bugs.
 *
 * - EngineError: things a user did or can fix (an unknown environment, a refused spending cap);
 * - ApiError (service/errors.ts): everything that goes wrong talking to the service;
 * - SecretStoreError (secrets/store.ts): a token that cannot be kept;
 * - WorkbookFileError (workbooks): a file that cannot be read as a workbook;
 * - HistoryVersionError (storage/db.ts): a history written by a newer Skill Runner.
 */
import { UserFacingError, type ErrorAction, type ErrorCategory } from '../shared/errors'

export {
  UserFacingError,
  describeUserError,
  ERROR_CATEGORIES,
  type ErrorAction,
  type ErrorCategory,
} from '../shared/errors'

/** The engine's own failures, by category, with optional form fields at fault. */
export class EngineError extends UserFacingError {
  readonly category: ErrorCategory
  readonly fields: Record<string, string> | undefined

  constructor(
    category: ErrorCategory,
    message: string,
    nextStep: string,
    options?: { fields?: Record<string, string>; action?: ErrorAction; cause?: unknown },
  ) {
    super(message, nextStep, options)
    this.name = 'EngineError'
    this.category = category
    this.fields = options?.fields
  }

  /** The failure as the engine named it before categories: bad input was 'invalid-arguments'. */
  get code(): string {
    return this.category === 'bad-input' ? 'invalid-arguments' : this.category
  }
}
