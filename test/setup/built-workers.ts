/**
 * The suite's worker threads (the engine's workbook reader, the Sandbox's workbook check) run
 * bundled, as in the app and the command line: bundled once per run from the current source
 * into a folder of their own, named by SKILL_RUNNER_BUILT_WORKERS for the test processes. Loaded
 * through tsx instead, each thread compiled its modules anew: about 2 s and 0.9 s of CPU per
 * worker started, against 0.2 s of CPU bundled (docs/performance.md, "The test suite's time").
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

export default async function setup() {
  // Inside the project, so that the bundles' packages resolve from its node_modules.
  mkdirSync(join(root, 'test-results'), { recursive: true })
  const dir = mkdtempSync(join(root, 'test-results', 'workers-'))
  await build({
    absWorkingDir: root,
    entryPoints: [
      { in: 'src/core/workbooks/worker/entry.ts', out: 'worker' },
      { in: 'src/sandbox/workbooks/sandbox-workbook-worker.ts', out: 'sandbox-workbook-worker' },
    ],
    outdir: dir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: true,
    packages: 'external',
    logLevel: 'warning',
  })
  process.env.SKILL_RUNNER_BUILT_WORKERS = dir
  return () => rmSync(dir, { recursive: true, force: true })
}
