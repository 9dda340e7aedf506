// The keychain tests talk to a real OS keychain (on Linux: gnome-keyring through the Secret
// Service). They run apart from the main suite: `npm test` starts them inside a private D-Bus
// session with an unlocked keyring; where none can start they skip and print why.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/keychain/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
  },
})
