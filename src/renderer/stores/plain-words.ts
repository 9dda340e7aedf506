/**
 * What the connection card and the token note say. The engine already speaks in the user's
 * words; these only pick the window's own framing by the kind of answer (a step's name and
 * status, a store's kind), never by reading the engine's text. Plain functions, tested on their own.
 */
import type { ConnectionStep, TokenStorageView } from '../../shared/bridge'
import { versionWords } from '../../shared/format'

/** One step of the connection check in words. */
export function stepWords(step: ConnectionStep): string {
  if (step.step === 'version' && step.ok) return versionWords(step.body)
  // The window has a button for a refused token, so it names it.
  if (step.step === 'auth' && step.status === 401) {
    return 'The service did not accept the token. Paste a new one with “Change token”.'
  }
  return step.message
}

/** Where tokens are kept, for the note under the environments. */
export function tokenStoreWords(view: TokenStorageView): { line: string; advice: string } {
  const advice = view.advice
  switch (view.kind) {
    case 'keychain':
      return { line: `Saved in ${view.description}.`, advice }
    case 'encrypted-file':
      return {
        line: 'Saved encrypted on this computer, because no system keychain answered.',
        advice,
      }
    case 'environment':
      return { line: `Taken from ${view.description}; nothing is saved.`, advice }
    case 'memory':
      return {
        line: view.canSaveTokens
          ? 'Kept only while Skill Runner runs.'
          : 'Kept only while Skill Runner runs: they are forgotten when it closes, because no system keychain answered.',
        advice,
      }
  }
  return { line: view.description, advice }
}
