// The e2e tier's global setup (vitest.e2e.config.ts): builds the app when a source is newer than
// out/, and starts one Chromium for every file of the run, which each file reaches over its
// WebSocket (`chromiumEndpoint`) with its own browser context, instead of starting its own.
import { chromium } from 'playwright-core'
import type { TestProject } from 'vitest/node'
import { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumMissing, ensureAppBuilt } from './support'

export default async function setup(project: TestProject) {
  ensureAppBuilt()
  if (chromiumMissing()) return undefined
  const server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
  project.provide('chromiumEndpoint', server.wsEndpoint())
  return () => server.close()
}
