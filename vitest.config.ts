import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    exclude: ['test/keychain/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/setup/built-workers.ts'],
    setupFiles: ['test/setup/own-home.ts'],
    reporters: ['default'],
    // Modules transformed once are kept on disk (node_modules/.experimental-vitest-cache, dropped
    // when the lockfile changes), so each of npm test's vitest starts after the first reads them
    // rather than transforming them again (docs/performance.md, "The test suite's time").
    experimental: { fsModuleCache: true },
  },
})
