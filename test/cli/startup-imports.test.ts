// What `skill-runner --version`, `--help` and completion load before they answer: the command
// declarations and help, never the engine, the service contract (zod) or a workbook reader.
// Those come with a command's action (src/cli/actions), imported when it runs. Speed itself is
// measured by `npm run bench` (bench/cli-startup.bench.ts); this keeps what makes it fast.
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** The modules and packages src/cli/main.ts imports statically, directly or not. */
async function loadedBeforeTheFirstWord() {
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: ['src/cli/main.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    metafile: true,
    outdir: 'out/startup-imports-test',
    packages: 'external',
    logLevel: 'silent',
  })
  const modules = new Set<string>()
  const packages = new Set<string>()
  const next = ['src/cli/main.ts']
  while (next.length > 0) {
    const path = next.pop()!
    if (modules.has(path)) continue
    modules.add(path)
    for (const imported of metafile.inputs[path]?.imports ?? []) {
      // A dynamic import() loads when its command runs: not before the first word.
      if (imported.kind !== 'import-statement') continue
      if (!imported.external) next.push(imported.path)
      else if (!imported.path.startsWith('node:')) packages.add(imported.path)
    }
  }
  return { modules: [...modules], packages: [...packages] }
}

describe('the command line before its first word', () => {
  it('loads the declarations and help, not what the commands do, and no package', async () => {
    const { modules, packages } = await loadedBeforeTheFirstWord()
    expect(modules).toContain('src/cli/commands/index.ts')
    expect(modules).toContain('src/cli/help.ts')
    expect(modules.filter((path) => path.startsWith('src/cli/actions/'))).toEqual([])
    // core/errors.ts is the error model the exit codes are read from; nothing else of the engine.
    const engineSide = /^src\/(core\/(?!errors\.ts$)|shared\/contract|sandbox|web)/
    expect(modules.filter((path) => engineSide.test(path))).toEqual([])
    expect(packages).toEqual([])
  })
})
