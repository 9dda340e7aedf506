import { createHash, randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { safeFileName } from '../../src/core/files/safe-names'
import type { Connection, Engine } from '../../src/core/engine'
import { writeResultsWorkbook } from '../../src/core/flows/results/results'
import { runEnded, testEngine } from '../helpers/engine'
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox'

let sandbox: TestSandbox
let engine: Engine
let connection: Connection
let home: string
let runId: string
/** A run of document-digest whose output includes a 3 MB file (large enough to stream). */
let bigRunId: string

const rows = [
  { message: 'first', details: 'a longer text that comes back as a file', sequence: 1 },
  { message: 'second [[fail]]', sequence: 2 },
  { message: 'third', sequence: 3 },
]

const finished = (id: string) => runEnded(connection, id)

beforeAll(async () => {
  sandbox = await startTestSandbox()
  home = mkdtempSync(join(tmpdir(), 'sr-downloads-'))
  engine = testEngine(home, { tokenOverride: sandbox.token })
  connection = await engine.connect({ baseUrl: sandbox.url })
  const entry = await engine.submissions.journal(connection, {
    target: { kind: 'template', templateId: 'row-echo' },
    rows,
    rowNumbers: [2, 3, 5],
  })
  runId = (await engine.submissions.send(connection, entry)).runId
  await finished(runId)

  const big = join(home, 'big.bin')
  writeFileSync(big, randomBytes(3 * 1024 * 1024))
  const { asset } = await engine.uploads.file(connection, big)
  const digest = await engine.submissions.journal(connection, {
    target: { kind: 'template', templateId: 'document-digest' },
    rows: [{ document: { inputAssetId: asset.inputAssetId }, title: 'Big file' }],
  })
  bigRunId = (await engine.submissions.send(connection, digest)).runId
  await finished(bigRunId)
})
afterAll(async () => {
  await engine.close()
  await sandbox.close()
})

function sha(bytes: Buffer | string) {
  return createHash('sha256').update(bytes).digest('hex')
}

async function served(accessUrl: string): Promise<Buffer> {
  const response = await fetch(accessUrl, { headers: { Authorization: `Bearer ${sandbox.token}` } })
  return Buffer.from(await response.arrayBuffer())
}

describe('downloading a run', () => {
  it('puts every artifact in a folder per run and per row, then skips finished files', async () => {
    const out = mkdtempSync(join(tmpdir(), 'sr-out-'))
    const detail = await connection.client.run(runId)
    expect(detail.artifacts.length).toBeGreaterThanOrEqual(2)
    const first = await engine.downloads.run(connection, runId, out, { listFiles: true })
    expect(first.failed).toEqual([])
    expect(first.files).toHaveLength(detail.artifacts.length)
    expect(first.folder).toBe(join(out, runId))
    for (const file of first.files) {
      const artifact = detail.artifacts.find((a) => a.artifactId === file.artifactId)!
      const rel = relative(first.folder, file.path).split(/[\\/]/)
      expect(rel[0]).toBe(`row-00${artifact.sourceRowIndex + 1}`)
      const expected = artifact.inlineText
        ? Buffer.from(artifact.inlineText)
        : await served(artifact.accessUrl)
      expect(sha(readFileSync(file.path))).toBe(sha(expected))
      expect(file.bytes).toBe(expected.length)
    }
    // No temporary files are left behind.
    for (const row of readdirSync(first.folder))
      expect(readdirSync(join(first.folder, row)).filter((n) => n.endsWith('.partial'))).toEqual([])

    const second = await engine.downloads.run(connection, runId, out, { listFiles: true })
    expect(second.files.map((f) => f.skipped)).toEqual(first.files.map(() => true))
    expect(second.files.map((f) => f.path)).toEqual(first.files.map((f) => f.path))
    // Unless asked for the list, a download says only how many: it holds nothing per output.
    const counted = await engine.downloads.run(connection, runId, out)
    expect(counted).toMatchObject({ saved: first.files.length, reused: first.files.length })
    expect(counted.files).toBeUndefined()
    expect(first).toMatchObject({ saved: first.files.length, reused: 0 })
  })

  it('saves the same files from the run stored in the history as from its detail held whole', async () => {
    const held = await engine.downloads.run(
      connection,
      await connection.client.run(runId),
      mkdtempSync(join(tmpdir(), 'sr-held-')),
      { listFiles: true },
    )
    // By its id: the detail is read into the history and its outputs saved a page at a time.
    const stored = await engine.downloads.run(
      connection,
      runId,
      mkdtempSync(join(tmpdir(), 'sr-stored-')),
      { listFiles: true },
    )
    const files = (d: typeof held) =>
      d.files.map((f) => [f.artifactId, relative(d.folder, f.path), sha(readFileSync(f.path))])
    expect(files(stored)).toEqual(files(held))
    expect(stored.failed).toEqual(held.failed)
    expect(engine.runRows.counts(connection.historyKey, runId).outputs).toBe(held.files.length)
  })

  it('resumes a download cut half-way and the file is intact', async () => {
    const out = mkdtempSync(join(tmpdir(), 'sr-cut-'))
    const detail = await connection.client.run(bigRunId)
    const remote = detail.artifacts.find((a) => !a.inlineText && a.accessUrl)!
    const whole = await served(remote.accessUrl)
    expect(whole.length).toBe(3 * 1024 * 1024)
    const half = Math.floor(whole.length / 2)
    sandbox.injectFault({
      method: 'GET',
      path: new URL(remote.accessUrl).pathname,
      cutBodyAfterBytes: half,
    })
    const result = await engine.downloads.run(connection, { ...detail, artifacts: [remote] }, out, {
      listFiles: true,
    })
    expect(result.failed).toEqual([])
    // From what reached the disk before the cut: all of the half sent, or short of it by the
    // chunk still on its way to the file when the connection broke (a loaded machine).
    expect(result.files[0]!.resumedFrom).toBeGreaterThan(half - 256 * 1024)
    expect(result.files[0]!.resumedFrom).toBeLessThanOrEqual(half)
    expect(sha(readFileSync(result.files[0]!.path))).toBe(sha(whole))
  })

  it('a download cut every time is reported, and the next attempt resumes it', async () => {
    const out = mkdtempSync(join(tmpdir(), 'sr-cut2-'))
    const detail = await connection.client.run(bigRunId)
    const remote = detail.artifacts.find((a) => !a.inlineText && a.accessUrl)!
    const whole = await served(remote.accessUrl)
    const path = new URL(remote.accessUrl).pathname
    sandbox.injectFault({ method: 'GET', path, cutBodyAfterBytes: 100_000, times: 2 })
    const one = { ...detail, artifacts: [remote] }
    const cut = await engine.downloads.run(connection, one, out, { attempts: 1, listFiles: true })
    expect(cut.files).toEqual([])
    expect(cut.failed[0]).toMatchObject({
      artifactId: remote.artifactId,
      nextStep: expect.stringMatching(/again/),
    })
    // A second cut, 10 bytes further, then the rest.
    const again = await engine.downloads.run(connection, one, out, {
      attempts: 2,
      listFiles: true,
    })
    expect(again.failed).toEqual([])
    // Resumed past the first cut's bytes, from what the second attempt had written.
    expect(again.files[0]!.resumedFrom).toBeGreaterThan(0)
    expect(again.files[0]!.resumedFrom).toBeLessThanOrEqual(200_000)
    expect(sha(readFileSync(again.files[0]!.path))).toBe(sha(whole))
  })
})

describe('where outputs cannot go', () => {
  it('a file where the folder should be gets a clear message', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sr-notdir-')), 'notes.txt')
    writeFileSync(file, 'mine')
    await expect(engine.downloads.run(connection, runId, join(file, 'deeper'))).rejects.toThrow(
      /is a file, not a folder/,
    )
    expect(readFileSync(file, 'utf8')).toBe('mine')
  })
})

describe('artifacts elsewhere', () => {
  let foreign: Server
  let foreignUrl: string
  const seen: IncomingHttpHeaders[] = []

  beforeAll(async () => {
    foreign = createServer((req, res) => {
      seen.push(req.headers)
      res.writeHead(200, {
        'Content-Type': 'text/plain',
        'Content-Disposition': 'attachment; filename="../../evil"',
        'Content-Length': '5',
      })
      res.end('hello')
    })
    await new Promise<void>((r) => foreign.listen(0, '127.0.0.1', () => r()))
    const address = foreign.address() as { port: number }
    // localhost vs 127.0.0.1: same machine, another origin.
    foreignUrl = `http://localhost:${address.port}/files/report`
  })
  afterAll(() => new Promise<void>((r) => foreign.close(() => r())))

  it('gets no Authorization header, and `../../evil` lands inside the folder', async () => {
    const out = mkdtempSync(join(tmpdir(), 'sr-foreign-'))
    const detail = await connection.client.run(runId)
    const artifact = { ...detail.artifacts[0]!, inlineText: '', accessUrl: foreignUrl }
    const result = await engine.downloads.run(
      connection,
      { ...detail, artifacts: [artifact] },
      out,
      { listFiles: true },
    )
    expect(result.failed).toEqual([])
    expect(seen).toHaveLength(1)
    expect(seen[0]!.authorization).toBeUndefined()
    const path = result.files[0]!.path
    expect(relative(out, path).startsWith('..')).toBe(false)
    expect(path.startsWith(join(result.folder, 'row-001'))).toBe(true)
    expect(readFileSync(path, 'utf8')).toBe('hello')
    expect(existsSync(join(out, '..', 'evil'))).toBe(false)
  })
})

describe('safe file names', () => {
  it.each([
    ['../../evil', '_.._evil'],
    ['a/b\\c:d*e?f"g<h>i|j', 'a_b_c_d_e_f_g_h_i_j'],
    ['CON', '_CON'],
    ['nul.txt', '_nul.txt'],
    ['report. . ', 'report'],
    ['..', 'file'],
    ['   ', 'file'],
    ['bell\u0007\u0000.txt', 'bell.txt'],
    ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
  ])('%j becomes %j', (input, expected) => {
    expect(safeFileName(input)).toBe(expected)
  })

  it('shortens long names and keeps the extension', () => {
    const name = safeFileName(`${'é'.repeat(300)}.pdf`)
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(150)
    expect(name.endsWith('.pdf')).toBe(true)
  })
})

describe('the results workbook', () => {
  it('has the rows sent, status, error and each output side by side', async () => {
    const out = mkdtempSync(join(tmpdir(), 'sr-results-'))
    const path = join(out, 'results.xlsx')
    const written = await writeResultsWorkbook(engine, connection, runId, path)
    expect(written.rows).toBe(3)
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.readFile(path)
    const sheet = wb.getWorksheet('Results')!
    const header = (sheet.getRow(1).values as unknown[]).slice(1)
    expect(header.slice(0, 4)).toEqual(['Sheet row', 'message', 'details', 'sequence'])
    expect(header).toContain('Task status')
    const at = (row: number, name: string) =>
      sheet.getRow(row).getCell(header.indexOf(name) + 1).value
    expect([2, 3, 4].map((r) => at(r, 'Sheet row'))).toEqual([2, 3, 5])
    expect(at(2, 'message')).toBe('first')
    expect(at(3, 'Task status')).toMatch(/fail/i)
    expect(String(at(3, 'Error'))).toMatch(/message/)
    // The first row's outputs: a link to a downloaded file that exists.
    const outputs = header.slice(header.indexOf('Error') + 1) as string[]
    expect(outputs.length).toBeGreaterThan(0)
    const links = outputs
      .map((name) => at(2, name))
      .filter((v): v is { text: string; hyperlink: string } => typeof v === 'object' && v !== null)
    expect(links.length).toBeGreaterThan(0)
    for (const link of links) expect(existsSync(join(out, decodeURI(link.hyperlink)))).toBe(true)
    expect(wb.getWorksheet('Run')!.getCell('B3').value).toMatch(
      /Completed|Succeeded|Failed|Partial/i,
    )
  })
})

describe('downloads through the Bridge', () => {
  it('saves into the outputs folder and pushes progress events', async () => {
    const { createBridgeService } = await import('../../src/core/bridge/service')
    const out = mkdtempSync(join(tmpdir(), 'sr-bridge-'))
    await engine.addEnvironment({ name: 'Local', baseUrl: sandbox.url })
    const service = createBridgeService(engine, {
      shell: 'electron',
      app: { name: 'test', version: '0', platform: 'linux' },
      dialogs: { defaultOutputsFolder: () => out },
    })
    const events: unknown[] = []
    service.subscribe((event, payload) => {
      if (event === 'downloadProgress') events.push(payload)
    })
    const result = await service.handlers.downloadRun(
      { environment: 'Local', runId },
      { transport: 'ipc' },
    )
    service.dispose()
    expect(result).toMatchObject({
      environment: 'Local',
      runId,
      folder: join(out, runId),
      failed: [],
    })
    expect(result!.savedFiles).toBeGreaterThan(0)
    expect(events.at(-1)).toMatchObject({
      runId,
      doneFiles: result!.savedFiles,
      totalFiles: result!.savedFiles,
    })
  })
})

describe('uploads through the Bridge', () => {
  it('takes contents from a browser, refuses paths over HTTP, and pushes progress', async () => {
    const { createBridgeService } = await import('../../src/core/bridge/service')
    await engine.addEnvironment({ name: 'Uploads', baseUrl: sandbox.url }).catch(() => undefined)
    const service = createBridgeService(engine, {
      shell: 'browser',
      app: { name: 'test', version: '0', platform: 'linux' },
    })
    const events: { name: string; state: string }[] = []
    service.subscribe((event, payload) => {
      if (event === 'uploadProgress') events.push(payload as { name: string; state: string })
    })
    const content = Buffer.from('invoice 42, paid').toString('base64')
    const files = [{ kind: 'bytes' as const, name: '../invoice.txt', base64: content }]
    const first = await service.handlers.uploadFiles(
      { environment: 'Uploads', files },
      { transport: 'http' },
    )
    expect(first.assets).toEqual([
      { name: '../invoice.txt', inputAssetId: expect.any(String), sizeBytes: 16, reused: false },
    ])
    const again = await service.handlers.uploadFiles(
      { environment: 'Uploads', files },
      { transport: 'http' },
    )
    expect(again.assets[0]).toMatchObject({
      inputAssetId: first.assets[0]!.inputAssetId,
      reused: true,
    })
    expect(events.map((e) => e.state)).toContain('done')
    expect(events.at(-1)).toMatchObject({ name: '../invoice.txt', state: 'reused' })
    await expect(
      service.handlers.uploadFiles(
        { environment: 'Uploads', files: [{ kind: 'path', path: '/etc/passwd', name: 'passwd' }] },
        { transport: 'http' },
      ),
    ).rejects.toMatchObject({ code: 'forbidden' })
    service.dispose()
  })
})
