// libsql is loaded without the whole diagnostic report its loader would take on Linux, and
// without detect-libc's node:child_process (see libsql-loader.ts). In a fresh process, since a
// loaded module is never loaded twice.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { build } from 'esbuild'
import { afterAll, describe, expect, it } from 'vitest'

const dir = mkdtempSync(join(tmpdir(), 'sr-libsql-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// Counts the process's reports, loads libsql through the loader and uses it.
const PROBE = `
const counted = { reports: 0 }
const real = process.report.getReport.bind(process.report)
process.report.getReport = (...args) => { counted.reports += 1; return real(...args) }
const ours = process.report.getReport
const { loadLibsql } = await import(process.argv[2])
const childProcess = () => process.moduleLoadList.includes('NativeModule child_process')
const childProcessBefore = childProcess()
const Database = loadLibsql()
const childProcessLoaded = !childProcessBefore && childProcess()
const { createRequire } = await import('node:module')
const fromLibsql = createRequire(createRequire(process.argv[2]).resolve('libsql'))
const laterDetectLibc = typeof fromLibsql('detect-libc').family
const db = new Database(':memory:')
const { one } = db.prepare('select 1 as one').get()
db.close()
console.log(JSON.stringify({ one, reports: counted.reports, restored: process.report.getReport === ours, childProcessLoaded, laterDetectLibc }))
`

describe('loading libsql', () => {
  it('works, takes no diagnostic report and loads no child_process on glibc Linux, and leaves process.report and detect-libc as they were', async () => {
    const probe = join(dir, 'probe.mjs')
    writeFileSync(probe, PROBE)
    // Plain node runs the loader, built where libsql's package is found: tsx itself loads
    // child_process.
    const loader = resolve(`out/libsql-loader-test-${process.pid}.mjs`)
    await build({
      entryPoints: [resolve('src/core/storage/libsql-loader.ts')],
      outfile: loader,
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      logLevel: 'silent',
    })
    const run = spawnSync(process.execPath, [probe, loader], { encoding: 'utf8' })
    rmSync(loader, { force: true })
    expect(run.stderr).toBe('')
    const seen = JSON.parse(run.stdout) as {
      one: number
      reports: number
      restored: boolean
      childProcessLoaded: boolean
      laterDetectLibc: string
    }
    expect(seen.one).toBe(1)
    expect(seen.restored).toBe(true)
    // Whoever asks for detect-libc afterwards gets the real one, with all its functions.
    expect(seen.laterDetectLibc).toBe('function')
    const header = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } })
      .header
    const glibc = process.platform === 'linux' && Boolean(header?.glibcVersionRuntime)
    if (glibc) expect(seen.reports).toBe(0)
    if (glibc) expect(seen.childProcessLoaded).toBe(false)
  })
})
