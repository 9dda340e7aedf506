/**
 * What the connection card says. The engine already speaks in the user's words (where a token
 * is, too: EnvironmentView.token); these only pick the window's own framing by the kind of
 * answer (a step's name and status), never by reading the engine's text. Plain functions, tested on their own.
 */
import type { ConnectionStep } from '../../shared/bridge'
import { versionWords } from '../../shared/format'

/** The one name of the button that gives an environment its token, wherever it appears. */
export const TOKEN_BUTTON = 'Change token'

/** One step of the connection check in words. */
export function stepWords(step: ConnectionStep): string {
  if (step.step === 'version' && step.ok) return versionWords(step.body)
  // The window has a button for a refused token, so it names it.
  if (step.step === 'auth' && step.status === 401) {
    return `The service did not accept the token. Paste a new one with “${TOKEN_BUTTON}”.`
  }
  return step.message
}
