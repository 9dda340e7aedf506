// The "New run" screen's verbs through the Bridge handlers, with the real engine, the real
// sandbox over HTTP and the real workbook worker: templates known here, a schema that still
// answers offline with its age, the input workbook of a listing the buyer does not own, a filled
// copy checked with its problems on their cells, rows for the grid, the marked-up copy, Cancel.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BridgeService } from '../../src/core/bridge/service'
import type { Engine } from '../../src/core/engine'
import { checkWorkbook } from '../../src/core/flows/prepare'
import { generateInputWorkbook } from '../../src/core/workbooks'
import { officialTemplateSchemaSchema } from '../../src/shared/contract'
import { BridgeError, type SavedFileView } from '../../src/shared/bridge'
import {
  BUYER_SANDBOX,
  BUYER_TOKEN,
  LISTING_ID,
  LISTING_TARGET,
  LISTING_VERSION,
  buyerSeed,
} from '../helpers/buyer-seed'
import { browserBridgeService, http, ipc, testEngine } from '../helpers/engine'
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox'
import { until } from '../helpers/wait'
import { BUILTIN_SANDBOX_TEMPLATE_IDS } from '../../src/core/environments/builtin-sandbox'
import { demoSeed } from '../../src/sandbox/demo-content'

let market: TestSandbox
let gone: TestSandbox
let engine: Engine
let service: BridgeService
let home: string
const progress: number[] = []

beforeAll(async () => {
  market = await startTestSandbox(BUYER_SANDBOX)
  gone = await startTestSandbox(BUYER_SANDBOX)
  home = mkdtempSync(join(tmpdir(), 'sr-prepare-'))
  engine = testEngine(home, {
    api: { maxAttempts: 1, backoffMs: 5, maxBackoffMs: 10, timeoutMs: 3000 },
  })
  await engine.addEnvironment({ name: 'Market', baseUrl: market.url, token: BUYER_TOKEN })
  await engine.addEnvironment({ name: 'Gone', baseUrl: gone.url, token: BUYER_TOKEN })
  service = browserBridgeService(engine)
  service.subscribe((event, payload) => {
    if (event === 'checkProgress') progress.push((payload as { rowsRead: number }).rowsRead)
  })
})
afterAll(async () => {
  service.dispose()
  await engine.close()
  await market.close()
  await gone.close().catch(() => {})
})

const h = () => service.handlers

function bytesOf(saved: SavedFileView | null): Buffer {
  if (!saved || saved.kind !== 'bytes') throw new Error('expected bytes for the page')
  return Buffer.from(saved.base64, 'base64')
}

/** The listing's blank input workbook, as a page gets it. */
async function blankListingWorkbook(): Promise<Buffer> {
  return bytesOf(
    await h().saveInputWorkbook({ environment: 'Market', target: LISTING_TARGET }, http),
  )
}

async function fillListingWorkbook(
  blank: Buffer,
  rows: (string | number)[][],
): Promise<{ path: string; base64: string }> {
  const book = new ExcelJS.Workbook()
  await book.xlsx.load(blank as unknown as ArrayBuffer)
  const input = book.getWorksheet('Input')!
  rows.forEach((values, i) => {
    values.forEach((v, c) => (input.getCell(i + 2, c + 1).value = v))
  })
  const path = join(home, `filled-${Date.now()}.xlsx`)
  await book.xlsx.writeFile(path)
  const buffer = Buffer.from(await book.xlsx.writeBuffer())
  return { path, base64: buffer.toString('base64') }
}

describe('preparing a run through the Bridge', () => {
  it('offers exactly the built-in Sandbox’s official templates', () => {
    const served = (demoSeed(1).officialTemplates ?? []).map((t) => t.schema.templateId)
    expect([...BUILTIN_SANDBOX_TEMPLATE_IDS].sort()).toEqual([...served].sort())
  })

  it('knows a template once its schema was fetched, and still shows it offline with its age', async () => {
    expect((await h().listTemplates({ environment: 'Gone' }, http)).items).toEqual([])
    const fresh = await h().getTemplate({ environment: 'Gone', templateId: 'tpl-echo' }, http)
    expect(fresh.fromCache).toBe(false)
    expect(fresh.fields.map((f) => f.key)).toEqual(['message'])
    await gone.close()
    const offline = await h().getTemplate({ environment: 'Gone', templateId: 'tpl-echo' }, http)
    expect(offline.fromCache).toBe(true)
    expect(offline.fetchedAtMs).toBe(fresh.fetchedAtMs)
    const list = await h().listTemplates({ environment: 'Gone' }, http)
    expect(list.items.map((t) => [t.templateId, t.source])).toEqual([['tpl-echo', 'cached']])

    // Checking works with the service gone, against the saved form.
    const csv = Buffer.from('Message\nhello\n\n').toString('base64')
    const check = await h().checkWorkbook(
      {
        environment: 'Gone',
        checkId: 'offline-check-1',
        file: { kind: 'bytes', name: 'rows.csv', base64: csv },
        target: { kind: 'template', templateId: 'tpl-echo' },
      },
      http,
    )
    expect(check.valid).toBe(true)
    expect(check.schemaFromCache).toBe(true)
  })

  it('checks a listing workbook the buyer filled: the workbook names its listing, two bad cells are placed', async () => {
    const filled = await fillListingWorkbook(await blankListingWorkbook(), [
      ['Blue kettle', 'friendly', 40],
      ['Red lamp', 'angry', 30],
      ['Green mug', 'formal', 'many'],
    ])
    const check = await h().checkWorkbook(
      {
        environment: 'Market',
        checkId: 'listing-check-1',
        file: { kind: 'bytes', name: 'ads.xlsx', base64: filled.base64 },
      },
      http,
    )
    expect(check.target).toMatchObject({ kind: 'listing', listingId: LISTING_ID, name: 'Ad copy' })
    expect(check.targetFromWorkbook).toBe(true)
    expect(check.valid).toBe(false)
    expect(check.rowCount).toBe(3)
    expect(check.columns.map((c) => c.label)).toEqual(['Product', 'Tone', 'Words'])
    expect(check.problems.map((p) => [p.rowNumber, p.column, p.rowPosition])).toEqual([
      [3, 2, 1],
      [4, 3, 2],
    ])

    const rows = await h().getCheckedRows(
      { checkId: 'listing-check-1', offset: 0, limit: 10 },
      http,
    )
    expect(rows.total).toBe(3)
    expect(rows.rows.map((r) => [r.rowNumber, r.cells, r.badColumns])).toEqual([
      [2, ['Blue kettle', 'friendly', '40'], []],
      [3, ['Red lamp', 'angry', '30'], [2]],
      [4, ['Green mug', 'formal', 'many'], [3]],
    ])

    const marked = new ExcelJS.Workbook()
    await marked.xlsx.load(
      bytesOf(
        await h().saveMarkedUpCopy({ checkId: 'listing-check-1' }, http),
      ) as unknown as ArrayBuffer,
    )
    const input = marked.getWorksheet('Input')!
    expect(String(input.getCell('B3').note ?? '')).toContain('Tone')
    expect(marked.getWorksheet('Errors')?.getCell('A2').text).toBe('B3')

    // The desktop reads the same file by its path; a page may not name paths.
    const byPath = await h().checkWorkbook(
      {
        environment: 'Market',
        checkId: 'listing-check-2',
        file: { kind: 'path', path: filled.path, name: 'ads.xlsx' },
      },
      ipc,
    )
    expect(byPath.problems).toHaveLength(2)
    await expect(
      h().checkWorkbook(
        {
          environment: 'Market',
          checkId: 'listing-check-3',
          file: { kind: 'path', path: filled.path, name: 'ads.xlsx' },
        },
        http,
      ),
    ).rejects.toMatchObject({ code: 'forbidden' })
  })

  it('the command line’s check is the same flow: same problems on the same cells, no cells kept', async () => {
    const filled = await fillListingWorkbook(await blankListingWorkbook(), [
      ['Blue kettle', 'friendly', 40],
      ['Red lamp', 'angry', 30],
    ])
    const connection = await engine.connect({ env: 'Market' })
    const lean = await checkWorkbook(engine, connection, filled.path, { keepCells: false })
    const grid = await checkWorkbook(engine, connection, filled.path, { keepCells: true })
    expect(lean.found?.target).toMatchObject({ kind: 'listing', listingId: LISTING_ID })
    expect(lean.targetFromWorkbook).toBe(true)
    expect(lean.result.valid).toBe(false)
    expect(lean.result.errorCells).toEqual(grid.result.errorCells)
    expect(lean.result.errorCells.map((c) => [c?.row, c?.column])).toEqual([[3, 2]])
    expect(lean.result.cells ?? []).toHaveLength(0)
    expect(lean.result.rows).toHaveLength(0)
    expect(grid.result.cells).toHaveLength(2)
  })

  it('a listing workbook the command line made (it names the listing as its template) finds its listing', async () => {
    const path = join(home, 'cli-listing.xlsx')
    await generateInputWorkbook(
      officialTemplateSchemaSchema.parse({
        templateId: LISTING_ID,
        name: 'Ad copy',
        ...buyerSeed.marketListings?.[0]?.schema,
      }),
      path,
    )
    const filled = await fillListingWorkbook(readFileSync(path), [['Blue kettle', 'friendly', 40]])
    const check = await h().checkWorkbook(
      {
        environment: 'Market',
        checkId: 'cli-listing-1',
        file: { kind: 'bytes', name: 'cli.xlsx', base64: filled.base64 },
      },
      http,
    )
    expect(check.target).toMatchObject({
      kind: 'listing',
      listingId: LISTING_ID,
      listingVersionId: LISTING_VERSION,
    })
    expect(check.valid).toBe(true)
  })

  it('a workbook that names nothing is read, and asks which template it is for', async () => {
    const csv = Buffer.from('Message,Note\nhello,x\n').toString('base64')
    const check = await h().checkWorkbook(
      {
        environment: 'Market',
        checkId: 'nameless-1',
        file: { kind: 'bytes', name: 'rows.csv', base64: csv },
      },
      http,
    )
    expect(check.target).toBeNull()
    expect(check.valid).toBe(false)
    expect(check.rowCount).toBe(1)
    expect(check.fileErrors[0]).toMatch(/Choose the template/)
  })

  it('cancels a long check at once, and the check says it was cancelled', async () => {
    const lines = ['Message']
    for (let i = 0; i < 400_000; i += 1) lines.push(`row ${i}`)
    const path = join(home, 'long.csv')
    writeFileSync(path, lines.join('\n'))
    progress.length = 0
    const running = h().checkWorkbook(
      {
        environment: 'Market',
        checkId: 'long-check-1',
        file: { kind: 'path', path, name: 'long.csv' },
        target: { kind: 'template', templateId: 'tpl-echo' },
      },
      ipc,
    )
    await until(() => progress.length > 0)
    await h().cancelCheck({ checkId: 'long-check-1' }, ipc)
    const error = await running.then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(BridgeError)
    expect((error as BridgeError).message).toBe('The check was cancelled.')
  })
})
