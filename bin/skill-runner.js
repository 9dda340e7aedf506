#!/usr/bin/env node
// Entry of the `skill-runner` command. Uses the bundle built by `npm install` (prepare);
// inside a source checkout without a bundle it falls back to running the sources through tsx.
// Builtins are taken with process.getBuiltinModule rather than imported: an import makes each
// one an ES module first (copying every export of node:fs), before the command's first word.
const { existsSync } = process.getBuiltinModule('node:fs')
const { fileURLToPath, pathToFileURL } = process.getBuiltinModule('node:url')
const { dirname, join } = process.getBuiltinModule('node:path')

// Node 22.1 and later keep the bundle's compiled code on disk between starts (compiling it is a
// good part of a small command's time); older versions have no such cache and compile each time.
process.getBuiltinModule('node:module').enableCompileCache?.()

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
