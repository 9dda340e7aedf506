import { readdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { runCliCaptured, useCliOnSandbox } from '../helpers/cli'
import { paths } from '../../src/shared/contract'
import { call, startTestSandbox } from '../helpers/sandbox'

const { sandbox, home } = useCliOnSandbox('sr-cli-')

const cli = (args: string[], env: Record<string, string> = {}) =>
  runCliCaptured(args, { SKILL_RUNNER_HOME: home, SKILL_RUNNER_TOKEN: sandbox.token, ...env })
const onSandbox = () => ['--base-url', sandbox.url]
/** `validate` of a csv for row-echo as JSON; `extra` options go before the service's address. */
const validateEcho = (csv: string, ...extra: string[]) =>
  cli(['validate', csv, '--template', 'row-echo', ...extra, ...onSandbox(), '--json'])
/** `run` of a csv with row-echo, watched to its end, as JSON. */
const runEcho = (csv: string) =>
  cli(['run', csv, '--template', 'row-echo', '--yes', ...onSandbox(), '--json', '--watch'])

describe('skill-runner against the sandbox', () => {
  it('doctor --json has the documented shape; a wrong token exits 3', async () => {
    const ok = await cli(['doctor', '--base-url', sandbox.url, '--json'])
    expect(ok.code).toBe(0)
    const report = JSON.parse(ok.stdout)
    expect(Object.keys(report)).toEqual(['healthz', 'version', 'auth'])
    expect(report.auth).toEqual({ ok: true, status: 200 })
    const bad = await cli(['--json', 'doctor', '--base-url', sandbox.url], {
      SKILL_RUNNER_TOKEN: 'wrong',
    })
    expect(bad.code).toBe(3)
    expect(JSON.parse(bad.stdout).auth.status).toBe(401)
  })

  it('unknown commands and bad options exit 2 with a hint', async () => {
    expect((await cli(['nonsense'])).code).toBe(2)
    const bad = await cli(['runs', 'list', '--frobnicate'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/Usage: skill-runner runs list/)
  })

  it('writes a template workbook, validates it offline and runs it', async () => {
    const book = join(home, 'echo.xlsx')
    expect(
      (await cli(['templates', 'workbook', 'row-echo', '-o', book, '--base-url', sandbox.url]))
        .code,
    ).toBe(0)
    const csv = join(home, 'echo.csv')
    writeFileSync(csv, 'Message,Sequence number\nhello,1\nagain,two\n')
    const invalid = await validateEcho(csv)
    expect(invalid.code).toBe(1)
    expect(JSON.parse(invalid.stdout).rowErrors[0].error).toBe(
      "Row 3, Sequence number: 'two' is not a whole number",
    )
    const annotated = join(home, 'echo.checked.xlsx')
    const marked = await validateEcho(csv, '--annotate', annotated)
    expect(marked.code).toBe(1)
    expect(JSON.parse(marked.stdout)).toEqual(JSON.parse(invalid.stdout))
    expect(marked.stderr).toContain(`annotated copy: ${annotated} (1 cell marked`)
    // A copy that cannot be written still leaves the validation result on stdout.
    const nowhere = join(home, 'no-such-folder', 'out.xlsx')
    const unwritten = await validateEcho(csv, '--annotate', nowhere)
    expect(unwritten.code).toBe(1)
    expect(JSON.parse(unwritten.stdout)).toEqual(JSON.parse(invalid.stdout))
    expect(unwritten.stderr).toContain(`no annotated copy: it could not be written to ${nowhere}`)
    writeFileSync(csv, 'Message,Sequence number\nhello,1\nagain,2\n')
    const run = await runEcho(csv)
    expect(run.code).toBe(0)
    const detail = JSON.parse(run.stdout)
    expect(detail.run.status).toBe('succeeded')
    const history = JSON.parse((await cli(['history', '--search', 'echo.csv', '--json'])).stdout)
    expect(history.items[0].runId).toBe(detail.run.runId)

    const runId = detail.run.runId
    const out = join(home, 'outputs')
    const fetched = await cli(['runs', 'download', runId, '-o', out, ...onSandbox(), '--json'])
    expect(fetched.code).toBe(0)
    const files = JSON.parse(fetched.stdout)
    expect(Object.keys(files)).toEqual(['files', 'failed'])
    expect(files.files.length).toBe(detail.artifacts.length)
    for (const f of files.files) {
      expect(Object.keys(f)).toEqual(['artifactId', 'path', 'bytes'])
      expect(f.path.startsWith(join(out, runId))).toBe(true)
    }
    const resultsBook = join(home, 'results.xlsx')
    const results = await cli([
      'runs',
      'results',
      runId,
      '-o',
      resultsBook,
      ...onSandbox(),
      '--json',
    ])
    expect(results.code).toBe(0)
    expect(JSON.parse(results.stdout)).toEqual({ path: resultsBook })
    const written = new ExcelJS.Workbook()
    await written.xlsx.readFile(resultsBook)
    const header = (written.getWorksheet('Results')!.getRow(1).values as unknown[]).slice(1, 4)
    expect(header).toEqual(['Sheet row', 'Message', 'Sequence number'])
    const missing = await cli(['runs', 'download', runId, '--base-url', sandbox.url])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/-o DIR/)
  })

  it('runs results makes a missing folder, and says which outputs it reused', async () => {
    const csv = join(home, 'reuse.csv')
    writeFileSync(csv, 'Message,Sequence number\nhello,1\nagain,2\n')
    const detail = JSON.parse((await runEcho(csv)).stdout)
    const runId = detail.run.runId
    const outputs = detail.artifacts.length
    expect(outputs).toBeGreaterThan(1)
    const book = join(home, 'not yet', 'made', 'results.xlsx')
    const results = (extra: string[] = []) =>
      cli(['runs', 'results', runId, '-o', book, ...onSandbox(), ...extra])
    const first = await results(['--json'])
    expect(first.code).toBe(0)
    expect(JSON.parse(first.stdout)).toEqual({ path: book })
    expect(first.stderr).toContain(`downloaded ${outputs} of ${outputs} files`)
    expect(first.stderr).not.toMatch(/reused/)
    // Everything is on disk now: nothing is fetched, and the command says so.
    const again = await results()
    expect(again.code).toBe(0)
    expect(again.stderr).toContain(`${outputs} outputs already saved, reused`)
    expect(again.stderr).not.toMatch(/download/)
    expect(again.stdout).toContain(`wrote ${book}`)
    // One output lost from disk: only that one is fetched again.
    const saved = readdirSync(dirname(book), { recursive: true, withFileTypes: true })
    const lost = saved.find((entry) => entry.isFile() && entry.name !== 'results.xlsx')!
    rmSync(join(lost.parentPath, lost.name))
    const partly = await results()
    expect(partly.code).toBe(0)
    expect(partly.stderr).toContain(
      `downloaded 1 of ${outputs} files, ${outputs - 1} already saved, reused`,
    )
  })

  it('validates offline with the saved copy of a template, and says how old it is', async () => {
    const other = await startTestSandbox()
    const url = other.url
    expect((await cli(['templates', 'schema', 'row-echo', '--base-url', url, '--json'])).code).toBe(
      0,
    )
    await other.close()
    const csv = join(home, 'offline.csv')
    writeFileSync(csv, 'Message,Sequence number\nhello,1\n')
    const offline = await cli([
      'validate',
      csv,
      '--template',
      'row-echo',
      '--base-url',
      url,
      '--json',
    ])
    expect(offline.code).toBe(0)
    expect(JSON.parse(offline.stdout)).toEqual({ valid: true, fileErrors: [], rowErrors: [] })
    expect(offline.stderr).toMatch(/working offline with the copy of the template saved just now/)
  })

  it('execute spends nothing without --yes, refuses above the cap, and runs with --yes', async () => {
    const csv = join(home, 'reviews.csv')
    writeFileSync(csv, 'Review,Stars\nGreat blender and quiet.,5\nBroke after a week.,1\n')
    const listing = [
      '--listing',
      'review-keyword-miner',
      '--version',
      'review-keyword-miner-v1',
      '--base-url',
      sandbox.url,
    ]
    const before = (await call<{ totalCount: number }>(sandbox, paths.runs())).body.totalCount
    const unconfirmed = await cli(['execute', csv, ...listing])
    expect(unconfirmed.code).toBe(1)
    expect(unconfirmed.stderr).toMatch(/Nothing was sent: confirm with --yes/)
    const capped = await cli(['execute', csv, ...listing, '--yes', '--max-cost', '5'])
    expect(capped.code).toBe(1)
    expect(capped.stderr).toMatch(/estimate of 8 credits is above your cap of 5/)
    expect((await call<{ totalCount: number }>(sandbox, paths.runs())).body.totalCount).toBe(before)
    const done = await cli(['execute', csv, ...listing, '--yes', '--max-cost', '8', '--json'])
    expect(done.code).toBe(0)
    const result = JSON.parse(done.stdout)
    expect(result.runTransactionId).not.toBe('')
    expect(result.taskFixedFeeT).toBe(4)
    expect((await call<{ totalCount: number }>(sandbox, paths.runs())).body.totalCount).toBe(
      before + 1,
    )
  })

  it('retries only the failed rows of a finished run', async () => {
    const csv = join(home, 'mixed.csv')
    writeFileSync(csv, 'Message\nfine\nbad [[fail]]\nalso fine\n')
    const run = await runEcho(csv)
    expect(run.code).toBe(1)
    const runId = JSON.parse(run.stdout).run.runId
    // Without a terminal to ask at, a retry (which costs money) needs --yes.
    const unconfirmed = await cli(['runs', 'retry-failed', runId, '--base-url', sandbox.url])
    expect(unconfirmed.code).toBe(1)
    expect(unconfirmed.stderr).toMatch(/Nothing was sent: confirm with --yes/)
    const retry = await cli([
      'runs',
      'retry-failed',
      runId,
      '--yes',
      ...onSandbox(),
      '--json',
      '--watch',
    ])
    const detail = JSON.parse(retry.stdout)
    expect(detail.run.totalTasks).toBe(1)
    const history = JSON.parse((await cli(['history', '--json'])).stdout)
    expect(history.items[0].retryOfRunId).toBe(runId)
  })
})
