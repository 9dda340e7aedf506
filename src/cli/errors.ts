/**
 * Exit codes (INTERFACES.md): 0 success; 1 the work was done and the answer is "no"; 2 bad usage;
 * 3 the service could not be reached or refused the credential; 4 other errors.
 */
import { ApiError } from '../core/service'
import { EngineError, UserFacingError } from '../core/errors'

export const EXIT = { ok: 0, no: 1, usage: 2, service: 3, other: 4 } as const

/** Wrong arguments: the message says what is wrong, the hint how to ask for help. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly hint = 'Run `skill-runner --help` for the commands and their options.',
  ) {
    super(message)
    this.name = 'UsageError'
  }
}

export function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError) return EXIT.usage
  if (error instanceof ApiError) {
    if (error.isUnreachable || error.status === 401 || error.status === 403) return EXIT.service
    return EXIT.other
  }
  if (error instanceof EngineError && error.code === 'invalid-arguments') return EXIT.usage
  // Refused by the spending cap, the user, or a rule (nothing was sent): the answer is "no".
  if (error instanceof EngineError && error.code === 'refused') return EXIT.no
  return EXIT.other
}

/** The lines printed on stderr for an error: what happened, then what to do. */
export function describeForTerminal(error: unknown): string {
  if (error instanceof UsageError) return `error: ${error.message}\n${error.hint}`
  if (error instanceof UserFacingError) return `error: ${error.message}\n${error.nextStep}`
  if (error instanceof Error) {
    return `error: ${error.message}\nThis looks like a bug in Skill Runner; please report it with the command you ran.`
  }
  return `error: ${String(error)}`
}
