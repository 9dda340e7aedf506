// The e2e tier (scripts/test-tiers.mjs): the main config, with one Chromium and one build check
// for the whole run (test/e2e/browser-server.ts). A file run with the main config starts its own.
import { defineConfig, mergeConfig } from 'vitest/config'
import base from './vitest.config'

export default mergeConfig(
  base,
  defineConfig({ test: { globalSetup: ['test/e2e/browser-server.ts'] } }),
)
