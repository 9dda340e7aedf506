/**
 * Which SecretStore the desktop app uses: the same chooser as the command line (core/secrets),
 * with Electron's safeStorage (an encrypted file) as the fallback when no keychain answers.
 */
export { chooseSecretStore, type FallbackSecretStore as FallbackTokenStore } from '../core/secrets'
export type { SecretStore as TokenStore } from '../core/secrets'
