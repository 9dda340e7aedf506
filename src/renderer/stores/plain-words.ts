/**
 * What the connection card says. The engine already speaks in the user's words (where a token
 * is, too: EnvironmentView.token); these only pick the window's own framing by the kind of
 * answer (a step's name and status), never by reading the engine's text. Plain functions, tested on their own.
 */
import type { ConnectionStep } from '../../shared/bridge'
import { versionWords } from '../../shared/format'

/** The one name of the button that gives an environment its token, wherever it appears. */
export const TOKEN_BUTTON = 'Change token'

/** The window's name of each step; the engine's titles name the interface version. */
export const STEP_TITLES: Record<ConnectionStep['step'], string> = {
  healthz: 'Service reachable',
  version: 'Kind of service',
  auth: 'Token accepted',
}

/** What a step holds for Details only: the version the service runs. */
export function versionDetail(step: ConnectionStep): string {
  return step.step === 'version' && step.ok ? versionWords(step.body) : ''
}

/** One step of the connection check in words. */
export function stepWords(step: ConnectionStep): string {
  // The version it names is the workshop's: the window shows it under Details (versionDetail).
  if (step.step === 'version' && step.ok) return 'It is the kind of service this app works with.'
  // The window has a button for a refused token, so it names it.
  if (step.step === 'auth' && step.noToken) {
    return `The service asks for a token, and this environment has none yet. Add it with “${TOKEN_BUTTON}”.`
  }
  if (step.step === 'auth' && step.status === 401) {
    return `The service did not accept the token. Paste a new one with “${TOKEN_BUTTON}”.`
  }
  return step.message
}
