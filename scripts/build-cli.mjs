// Bundles the command line and its worker entries into out/cli so that `npx skill-runner`
// starts without a TypeScript loader. Runs from `npm install` (prepare) and `npm run build`.
import { build } from 'esbuild'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
// The workbook worker's entry is built as out/cli/worker.js, the name its client looks for
// (src/core/workbooks/worker/run-in-worker.ts); the sandbox's worker keeps its own name.
const entryPoints = [
  { in: 'src/cli/main.ts', out: 'main' },
  { in: 'src/core/workbooks/worker/entry.ts', out: 'worker' },
  { in: 'src/sandbox/workbooks/sandbox-workbook-worker.ts', out: 'sandbox-workbook-worker' },
].filter((p) => existsSync(join(root, p.in)))
if (entryPoints.length === 0) process.exit(0)

/**
 * zod's namespace carries every message locale (a quarter of the bundle) and the command line
 * uses only English, zod's default: its locales index resolves to English alone here.
 */
const englishOnlyZod = {
  name: 'english-only-zod',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), '../locales/en.js'), namespace: 'zod-english' }
        : undefined,
    )
    build.onLoad({ filter: /.*/, namespace: 'zod-english' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)}`,
      resolveDir: dirname(args.path),
    }))
  },
}

/**
 * Every command's actions (src/cli/actions) are bundled as if each imported the command line's
 * engine. esbuild puts code in one split file per set of entries that import it, and the engine's
 * code was imported by a different set of actions module by module: a validate loaded it as 40
 * files, each resolved and read by Node's module loader on its own (a fifth of what a small
 * validate spent beyond bare node). Imported by every action alike, it is a few files. (On the
 * actions' first line, so that their source maps keep their lines.)
 */
const actionsWithEngine = {
  name: 'actions-with-engine',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]cli[\\/]actions[\\/][^\\/]+\.ts$/ }, (args) => ({
      contents: `import '../engine';${readFileSync(args.path, 'utf8')}`,
      loader: 'ts',
    }))
  },
}

const common = {
  absWorkingDir: root,
  outdir: 'out/cli',
  outbase: 'src',
  entryNames: '[name]',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  // Packages stay outside the bundle, except zod: bundled, its many small modules load as one file,
  // which is most of what the command line waits for before its first word.
  external: ['exceljs', 'libsql', 'ws', '@napi-rs/keyring', 'tsx', 'tsx/*'],
  // Whitespace and syntax only: names stay as written, for stack traces and error names. A third
  // less text is a third less for node to parse before the first word.
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [englishOnlyZod],
  logLevel: 'warning',
  // No `require` banner: nothing bundled calls require (zod is ESM; the packages above are
  // imported), and a banner made a require function in every split file a command loads.
}
// The split files are named by their content: a fresh folder keeps old ones from piling up.
rmSync(join(root, 'out/cli'), { recursive: true, force: true })
const main = entryPoints.filter((p) => p.out === 'main')
const workers = entryPoints.filter((p) => p.out !== 'main')
// The command line: what only some commands use (browser mode) is split into files of its own,
// loaded when such a command runs. They sit beside main.js, where the worker clients look for
// their entries (relative to the file they are in).
if (main.length > 0)
  await build({
    ...common,
    entryPoints: main,
    splitting: true,
    chunkNames: '[name]-[hash]',
    plugins: [englishOnlyZod, actionsWithEngine],
  })
// The workers stay one file each: a thread starts by reading one file, not the command line's.
if (workers.length > 0) await build({ ...common, entryPoints: workers })
