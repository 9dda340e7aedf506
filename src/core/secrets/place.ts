/**
 * "Where is the token": one answer per environment and one note for the computer, worked out
 * here so the header, the sidebar, the dialogs and `doctor` all say the same thing. The places,
 * in the order a token is looked for: SKILL_RUNNER_TOKEN (it wins over everything saved), this
 * session only (the engine's memory), then the store the engine chose (keychain or the
 * desktop's encrypted file).
 */
import type { TokenPlaceView, TokenStorageView } from '../../shared/bridge'

export interface TokenPlaceFacts {
  builtIn: boolean
  /** SKILL_RUNNER_TOKEN gives the token of every saved environment. */
  fromEnvironment: boolean
  /** A token is held in the engine's memory for this session. */
  inSession: boolean
  /** A token is in the chosen store. */
  saved: boolean
  store: TokenStorageView
}

export const SESSION_ONLY_LABEL = 'Token kept for this session only'

export function tokenPlace(facts: TokenPlaceFacts): TokenPlaceView {
  if (facts.builtIn) return { place: 'built-in', label: 'No account needed' }
  if (facts.fromEnvironment) {
    return { place: 'environment', label: 'Token from SKILL_RUNNER_TOKEN' }
  }
  if (facts.inSession) return { place: 'session', label: SESSION_ONLY_LABEL }
  if (!facts.saved) return { place: 'none', label: 'No token' }
  // A store that only holds tokens in memory (the tests' store) is a session too.
  if (facts.store.kind === 'memory') return { place: 'session', label: SESSION_ONLY_LABEL }
  if (facts.store.kind === 'encrypted-file') {
    return { place: 'saved', label: 'Token saved encrypted on this computer' }
  }
  return { place: 'saved', label: `Token saved in ${facts.store.description}` }
}

/** The computer's note on tokens, for the sidebar: where a new token goes. */
export function tokenStoreNote(view: TokenStorageView): string {
  if (view.kind === 'environment') return `Taken from ${view.description}; nothing is saved.`
  if (!view.canSaveTokens) {
    return 'There is no secure place on this computer to save tokens. A token can be kept for this session only: it is gone when Skill Runner closes.'
  }
  if (view.kind === 'keychain') return `Tokens are saved in ${view.description}.`
  if (view.kind === 'encrypted-file') {
    return 'Tokens are saved encrypted on this computer, because no system keychain answered.'
  }
  return 'Tokens are kept for this session only: they are gone when Skill Runner closes.'
}
