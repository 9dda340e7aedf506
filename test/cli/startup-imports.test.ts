// What `skill-runner --version`, `--help` and completion load before they answer: the command
// declarations and help, never the engine, the service contract (zod) or a workbook reader.
// Those come with a command's action (src/cli/actions), imported when it runs. What a validate
// against a template of the built-in Sandbox loads when its schema is saved (the usual small
// validate, src/cli/validate.ts): the history and the workbook reader, never the engine, the
// service's client or zod. And what `validate --template` loads otherwise, with its action and
// the engine: not the spending flows nor node:https. Speed itself is measured by `npm run bench`
// (bench/cli-startup.bench.ts); this keeps what makes it fast.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { openDb } from '../../src/core/storage/db'
import { SchemaCacheTable } from '../../src/core/storage/tables/schema-cache'
import type { OfficialTemplateSchema } from '../../src/shared/contract'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** The modules and packages the entries import statically, directly or not. */
async function loadedStatically(entryPoints: string[]) {
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints,
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
  const builtins = new Set<string>()
  const next = [...entryPoints]
  while (next.length > 0) {
    const path = next.pop()!
    if (modules.has(path)) continue
    modules.add(path)
    for (const imported of metafile.inputs[path]?.imports ?? []) {
      // A dynamic import() loads when its code runs: not with the module that holds it.
      if (imported.kind !== 'import-statement') continue
      if (!imported.external) next.push(imported.path)
      else if (imported.path.startsWith('node:')) builtins.add(imported.path)
      else packages.add(imported.path)
    }
  }
  return { modules: [...modules], packages: [...packages], builtins: [...builtins] }
}

describe('the command line before its first word', () => {
  it('loads the declarations and help, not what the commands do, and no package', async () => {
    const { modules, packages } = await loadedStatically(['src/cli/main.ts'])
    expect(modules).toContain('src/cli/commands/index.ts')
    expect(modules).toContain('src/cli/help.ts')
    expect(modules.filter((path) => path.startsWith('src/cli/actions/'))).toEqual([])
    // core/errors.ts is the error model the exit codes are read from; nothing else of the engine.
    const engineSide = /^src\/(core\/(?!errors\.ts$)|shared\/contract|sandbox|web)/
    expect(modules.filter((path) => engineSide.test(path))).toEqual([])
    expect(packages).toEqual([])
  })
})

describe('validate against a saved schema of the built-in Sandbox', () => {
  it('loads the history and the workbook reader: no engine, service client, contract or zod', async () => {
    const { modules, packages, builtins } = await loadedStatically(['src/cli/validate.ts'])
    expect(modules).toContain('src/core/flows/prepare/saved-check.ts')
    expect(modules).toContain('src/core/workbooks/validate/collector.ts')
    // The engine and its actions come by import() when the saved schema is not at hand.
    const engineSide =
      /^src\/(cli\/(actions\/|engine\.ts)|core\/(engine\.ts|bridge\/|secrets\/|flows\/(?!prepare\/(saved-check|check-against|saved-schema|column-mappings)\.ts))|shared\/bridge\/|sandbox\/|web\/)/
    expect(modules.filter((path) => engineSide.test(path))).toEqual([])
    // The service's client, and the contract's zod schemas: a saved schema is read by hand
    // (shared/contract/template-schema-reader.ts), the history's rows by their columns.
    const serviceSide =
      /^src\/(core\/service\/|shared\/contract\/(resources|endpoints|parse|index)\.ts$)/
    expect(modules.filter((path) => serviceSide.test(path))).toEqual([])
    expect(packages).toEqual([])
    for (const unused of [
      'node:crypto',
      'node:zlib',
      'node:worker_threads',
      'node:readline',
      'node:https',
      'node:http',
    ])
      expect(builtins).not.toContain(unused)
  })

  it('loads no zod and no undici in a fresh process, once the schema is saved', () => {
    inTempDir((dir) => {
      const csv = join(dir, 'three.csv')
      writeFileSync(csv, 'Message,Sequence number\nhello,1\nagain,2\nthree,3\n')
      const first = probeValidate(dir, csv)
      expect(first.code).toBe(0)
      // The first saved the schema (it started the Sandbox, and zod parsed its answer).
      expect(first.zod).toBe(true)
      expect(probeValidate(dir, csv)).toEqual({ code: 0, zod: false, undici: [] })
    })
  })
})

function inTempDir(work: (dir: string) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'sr-startup-'))
  try {
    work(dir)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * `validate FILE --template row-echo` run from the sources in a fresh process: its exit code,
 * whether zod loaded (it marks globalThis when it does) and Node's undici modules loaded.
 */
function probeValidate(dir: string, csv: string) {
  const probe = join(dir, 'probe.mjs')
  writeFileSync(
    probe,
    `const { runCli } = await import(process.argv[2])
    const code = await runCli(process.argv.slice(3))
    const undici = process.moduleLoadList.filter((name) => name.includes('undici'))
    console.log(JSON.stringify({ code, zod: '__zod_globalConfig' in globalThis, undici }))`,
  )
  const args = [probe, join(root, 'src/cli/main.ts'), 'validate', csv, '--template', 'row-echo']
  const run = spawnSync(process.execPath, ['--import', 'tsx', ...args], {
    encoding: 'utf8',
    env: { ...process.env, SKILL_RUNNER_HOME: join(dir, 'home') },
  })
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as {
    code: number
    zod: boolean
    undici: string[]
  }
}

describe('validate against a template', () => {
  // Its action with the engine, and the engine of the command line that ctx.engine() imports.
  const entries = ['src/cli/actions/validate.ts', 'src/cli/engine.ts']

  it('loads the offline check, not the spending flows, the sandbox, nor builtins a csv check does not use', async () => {
    const { modules, builtins } = await loadedStatically(entries)
    expect(modules).toContain('src/core/flows/prepare/check-workbook.ts')
    expect(modules).toContain('src/core/engine.ts')
    // Planning, costing and confirming a submission come with `validate --listing` only (the
    // engine keeps its plans in a plan-store, a small map).
    const spending =
      /^src\/core\/flows\/spend\/(plan-(?!store)|submission-inputs|confirm|cost|describe-plan)/
    expect(modules.filter((path) => spending.test(path))).toEqual([])
    // The xlsx reader and the workbooks' writers load on first use (workbooks/on-demand.ts).
    const xlsxOrWriter = /^src\/core\/workbooks\/(read\/xlsx\/|write\/(?!streaming-writer))/
    expect(modules.filter((path) => xlsxOrWriter.test(path))).toEqual([])
    // The built-in Sandbox loads when it starts, and node:https (with tls) on a streamed request.
    expect(modules.filter((path) => path.startsWith('src/sandbox/'))).toEqual([])
    expect(builtins).not.toContain('node:https')
    expect(builtins).not.toContain('node:tls')
    // Hashing and ids load node:crypto when first used (core/files/hashing.ts); zlib comes with
    // an xlsx or a zip written, a worker thread with a big file, readline with a results workbook.
    for (const unused of ['node:crypto', 'node:zlib', 'node:worker_threads', 'node:readline'])
      expect(builtins).not.toContain(unused)
  })

  it('asks the service without Node’s fetch, whose undici costs a start 30 ms', () => {
    inTempDir((dir) => {
      const csv = join(dir, 'one.csv')
      writeFileSync(csv, 'Message,Sequence number\nhello,1\n')
      // A fresh data folder: the schema is asked of the Sandbox, through the engine.
      expect(probeValidate(dir, csv)).toMatchObject({ code: 0, undici: [] })
    })
  })
})

/** How many functions `work` compiles from text (`new Function`), and what it returned. */
function compiledFromText<T>(work: () => T): { compiled: number; result: T } {
  const original = globalThis.Function
  let compiled = 0
  globalThis.Function = new Proxy(original, {
    construct(target, args) {
      compiled += 1
      return Reflect.construct(target, args) as object
    },
  })
  try {
    const result = work()
    return { compiled, result }
  } finally {
    globalThis.Function = original
  }
}

describe('what a validate reads from the history', () => {
  it('reads a saved schema without compiling zod’s fast parsers, which cost more than one read', () => {
    const db = openDb(':memory:')
    const table = new SchemaCacheTable(db)
    // Saved as written text: parsing it here would have compiled the parsers already.
    const schema = {
      templateId: 'row-echo',
      name: 'Row echo',
      version: '1',
      fields: [{ key: 'message', label: 'Message', type: 'string', scope: 'row', required: true }],
      columns: [{ fieldKey: 'message', headerLabel: 'Message', order: 0 }],
    } as unknown as OfficialTemplateSchema
    table.put('builtin:sandbox', 'row-echo', { schema, fetchedAtMs: 1 })
    const { compiled, result } = compiledFromText(() => table.get('builtin:sandbox', 'row-echo'))
    expect(result?.schema.templateId).toBe('row-echo')
    expect(compiled).toBe(0)
    db.close()
  })
})
