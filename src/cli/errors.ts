/**
 * How the command line says an error: one table from the error's category to the exit code
 * (INTERFACES.md: 0 success; 1 the work was done and the answer is "no"; 2 bad usage; 3 the
 * service could not be reached or refused the credential; 4 other errors), and one from the
 * error's action to the flags that do it. No text matching: the engine's message and next step
 * are printed as they are.
 */
import { UserFacingError, type ErrorAction, type ErrorCategory } from '../core/errors'

export const EXIT = { ok: 0, no: 1, usage: 2, service: 3, other: 4 } as const

/** Wrong arguments: the message says what is wrong, the hint how to ask for help. */
export class UsageError extends UserFacingError {
  readonly category = 'bad-input' as const
  constructor(
    message: string,
    readonly hint = 'Run `skill-runner --help` for the commands and their options.',
  ) {
    super(message, hint)
    this.name = 'UsageError'
  }
}

export const EXIT_BY_CATEGORY: Record<ErrorCategory, number> = {
  'bad-input': EXIT.usage,
  'not-found': EXIT.other,
  'not-signed-in': EXIT.service,
  'not-allowed': EXIT.service,
  refused: EXIT.no,
  unavailable: EXIT.service,
  conflict: EXIT.other,
  'over-limit': EXIT.no,
  cancelled: EXIT.no,
  internal: EXIT.other,
}

/** On the command line, how to do what an error's next step says. */
export const HINT_BY_ACTION: Record<ErrorAction, string> = {
  confirm: 'Confirm with --yes, or answer yes at the prompt.',
  'send-again': 'Add --again to send it as a new paid run.',
  'send-fewer-rows': 'Send fewer rows with --pilot N (or --rows N-M for a template).',
  'send-pilot': 'Send --pilot 1 (or --rows 1 for a template) without --max-cost first.',
  'set-token':
    'Set SKILL_RUNNER_TOKEN, or save one with `skill-runner env add NAME --base-url URL --token-stdin`.',
  'add-environment-again':
    'Run `skill-runner env remove NAME`, then `skill-runner env add NAME --base-url https://...`.',
  'watch-run': 'Follow it with `skill-runner runs watch RUN_ID`.',
  'choose-data-folder': 'Set SKILL_RUNNER_HOME to another folder.',
  'keep-token-for-session':
    'Or give the token in the SKILL_RUNNER_TOKEN environment variable: it is used for that command only and nothing is saved.',
  'change-monthly-limit':
    'Change it with `skill-runner env limit NAME N`, or turn it off with `skill-runner env limit NAME off`.',
}

const BUG = 'This looks like a bug in Skill Runner; please report it with the command you ran.'

export function exitCodeOf(error: unknown): number {
  if (error instanceof UserFacingError) return EXIT_BY_CATEGORY[error.category]
  return EXIT.other
}

/** The lines printed on stderr for an error: what happened, then what to do. */
export function describeForTerminal(error: unknown): string {
  if (error instanceof UserFacingError) {
    const lines = [`error: ${error.message}`]
    if (error.nextStep) lines.push(error.nextStep)
    if (error.action) lines.push(HINT_BY_ACTION[error.action])
    if (error.category === 'internal') lines.push(BUG)
    return lines.join('\n')
  }
  if (error instanceof Error) return `error: ${error.message}\n${BUG}`
  return `error: ${String(error)}`
}
