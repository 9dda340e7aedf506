#!/usr/bin/env node
// Entry of the `skill-runner` command. Uses the bundle built by `npm install` (prepare);
// inside a source checkout without a bundle it falls back to running the sources through tsx.
import { existsSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { dirname, join } from 'node:path'
import { setFlagsFromString } from 'node:v8'

// fetch parses HTTP with WebAssembly, which V8 optimises again in the background; node waits for
// that compile before it exits, 100 ms and more after a command that has already answered. A
// command line's few requests run as well on the first, unoptimised compile. Set before any fetch.
setFlagsFromString('--liftoff-only')

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const bundle = join(root, 'out/cli/main.js')
if (existsSync(bundle)) {
  const { runCli } = await import(pathToFileURL(bundle).href)
  process.exitCode = await runCli(process.argv.slice(2))
} else {
  const { register } = await import('tsx/esm/api')
  register()
  const { runCli } = await import(pathToFileURL(join(root, 'src/cli/main.ts')).href)
  process.exitCode = await runCli(process.argv.slice(2))
}
