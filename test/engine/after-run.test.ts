// The after-run flows through the Bridge against the real sandbox over HTTP and a real history
// database: previews of every kind, saving into the outputs folder, the results workbook,
// "Show in folder" in both shells, the history with costs, downloads and retries, the creator
// views, and settings that survive a restart of the engine.
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBridgeService, type BridgeService } from '../../src/core/bridge/service'
import { isOwnRun } from '../../src/core/flows/history/history-view'
import { runFolderName } from '../../src/core/flows/downloads/downloads'
import type { Connection, Engine } from '../../src/core/engine'
import { BridgeError } from '../../src/shared/bridge'
import { browserBridgeService, http, ipc, runEnded, TEST_APP, testEngine } from '../helpers/engine'
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox'

let sandbox: TestSandbox
let home: string
let outputs: string
let engine: Engine
let connection: Connection
let shown: string[]
let desktop: BridgeService
let browser: BridgeService
let echoRunId: string
let digestRunId: string

const makeEngine = () => testEngine(home, { tokenOverride: sandbox.token })

function services(e: Engine) {
  const defaultOutputsFolder = () => join(home, 'default-outputs')
  return {
    desktop: createBridgeService(e, {
      shell: 'electron',
      app: TEST_APP,
      dialogs: {
        defaultOutputsFolder,
        showItemInFolder: (path) => void shown.push(path),
      },
    }),
    browser: browserBridgeService(e, { dialogs: { defaultOutputsFolder } }),
  }
}

const ended = (runId: string) => runEnded(connection, runId)

beforeAll(async () => {
  sandbox = await startTestSandbox()
  home = mkdtempSync(join(tmpdir(), 'sr-after-run-'))
  outputs = join(home, 'my outputs')
  shown = []
  engine = makeEngine()
  await engine.addEnvironment({ name: 'Local', baseUrl: sandbox.url })
  connection = await engine.connect({ env: 'Local' })
  ;({ desktop, browser } = services(engine))

  const echo = await engine.submissions.journal(connection, {
    target: { kind: 'template', templateId: 'row-echo' },
    rows: [{ message: 'first' }, { message: 'second [[fail]]' }, { message: 'third' }],
    rowNumbers: [2, 3, 5],
  })
  echoRunId = (await engine.submissions.send(connection, echo)).runId

  const csv = join(home, 'table.csv')
  writeFileSync(csv, 'name,amount\n"Smith, Ann",12\nBob,"3 ""big"""\n')
  const png = join(home, 'dot.png')
  writeFileSync(
    png,
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    ),
  )
  const csvAsset = (await engine.uploads.file(connection, csv)).asset
  const pngAsset = (await engine.uploads.file(connection, png)).asset
  const digest = await engine.submissions.journal(connection, {
    target: { kind: 'template', templateId: 'document-digest' },
    rows: [
      { document: { inputAssetId: csvAsset.inputAssetId }, title: 'CSV' },
      { document: { inputAssetId: pngAsset.inputAssetId }, title: 'PNG' },
    ],
  })
  digestRunId = (await engine.submissions.send(connection, digest)).runId
  await ended(echoRunId)
  await ended(digestRunId)
})

afterAll(async () => {
  desktop?.dispose()
  browser?.dispose()
  await engine?.close()
  await sandbox?.close()
})

describe('settings', () => {
  it('starts from the defaults, refuses a relative folder, and keeps changes across a restart', async () => {
    const first = await desktop.handlers.getSettings({}, ipc)
    expect(first).toMatchObject({
      outputsFolder: join(home, 'default-outputs'),
      notifications: true,
      downloadConcurrency: 8,
      theme: 'system',
    })
    await expect(
      desktop.handlers.updateSettings({ outputsFolder: 'relative/folder' }, ipc),
    ).rejects.toMatchObject({ code: 'invalid-arguments' })
    const changed = await desktop.handlers.updateSettings(
      { outputsFolder: outputs, theme: 'dark', downloadConcurrency: 3, notifications: false },
      ipc,
    )
    expect(changed).toMatchObject({ outputsFolder: outputs, theme: 'dark', downloadConcurrency: 3 })

    // A new engine on the same home (the app restarted) sees the same settings.
    const again = makeEngine()
    const { browser: other, desktop: otherDesktop } = services(again)
    try {
      expect(await other.handlers.getSettings({}, http)).toMatchObject({
        outputsFolder: outputs,
        theme: 'dark',
        downloadConcurrency: 3,
        notifications: false,
      })
    } finally {
      other.dispose()
      otherDesktop.dispose()
      await again.close()
    }
    await desktop.handlers.updateSettings({ downloadConcurrency: 8, notifications: true }, ipc)
  })

  it('picks the outputs folder with the desktop’s folder picker; a browser is told to type it', async () => {
    const app = { name: 'test', version: '0', platform: 'linux' }
    const answers: (string | null)[] = [join(home, 'picked'), null]
    const asked: string[] = []
    const picker = createBridgeService(engine, {
      shell: 'electron',
      app,
      dialogs: {
        chooseFolder: async (_title, current) => {
          asked.push(current)
          return answers.shift() ?? null
        },
      },
    })
    try {
      expect(await picker.handlers.chooseOutputsFolder({}, ipc)).toMatchObject({
        outputsFolder: join(home, 'picked'),
      })
      // Cancelled: nothing changes.
      expect(await picker.handlers.chooseOutputsFolder({}, ipc)).toBeNull()
      expect(asked).toEqual([outputs, join(home, 'picked')])
      expect((await picker.handlers.getSettings({}, ipc)).outputsFolder).toBe(join(home, 'picked'))
    } finally {
      picker.dispose()
    }
    await expect(browser.handlers.chooseOutputsFolder({}, http)).rejects.toMatchObject({
      code: 'invalid-arguments',
    })
    await desktop.handlers.updateSettings({ outputsFolder: outputs }, ipc)
  })

  it('changes the unit label of an environment, built-in or saved', async () => {
    const list = await desktop.handlers.setUnitLabel(
      { environment: 'Local', unitLabel: 'tokens' },
      ipc,
    )
    expect(list.items.find((e) => e.name === 'Local')?.unitLabel).toBe('tokens')
    const builtIn = await desktop.handlers.setUnitLabel(
      { environment: 'Sandbox', unitLabel: 'coins' },
      ipc,
    )
    expect(builtIn.items.find((e) => e.builtIn)?.unitLabel).toBe('coins')
    await desktop.handlers.setUnitLabel({ environment: 'Local', unitLabel: 'credits' }, ipc)
  })
})

describe('a run opened in the app', () => {
  it('knows where its rows came from on this device', async () => {
    const overview = await desktop.handlers.getRunOverview(
      { environment: 'Local', runId: echoRunId },
      ipc,
    )
    expect(overview.fromThisDevice).toBe(true)
    expect(overview.rowNumbers).toEqual([2, 3, 5])
    const failed = overview.detail.tasks.find((t) => t.status === 'failed')!
    expect(failed.sourceRowIndex).toBe(1)
    expect(failed.errorMessage).toMatch(/fail/)
  })

  it('previews JSON, CSV and images through the engine, and names what it cannot show', async () => {
    const echo = await connection.client.run(echoRunId)
    const json = await browser.handlers.previewArtifact(
      { environment: 'Local', runId: echoRunId, artifactId: echo.artifacts[0]!.artifactId },
      http,
    )
    expect(json.kind).toBe('json')
    expect(JSON.parse(json.text)).toMatchObject({ values: { message: 'first' } })

    const digest = await connection.client.run(digestRunId)
    const byType = (type: string) => digest.artifacts.find((a) => a.mimeType === type)!
    const csv = await browser.handlers.previewArtifact(
      { environment: 'Local', runId: digestRunId, artifactId: byType('text/csv').artifactId },
      http,
    )
    expect(csv.kind).toBe('csv')
    expect(csv.table).toEqual([
      ['name', 'amount'],
      ['Smith, Ann', '12'],
      ['Bob', '3 "big"'],
    ])
    const image = await browser.handlers.previewArtifact(
      { environment: 'Local', runId: digestRunId, artifactId: byType('image/png').artifactId },
      http,
    )
    expect(image.kind).toBe('image')
    expect(image.dataUrl).toMatch(/^data:image\/png;base64,iVBOR/)
    // Nothing the page receives names the service or carries the token.
    for (const preview of [json, csv, image]) {
      expect(JSON.stringify(preview)).not.toContain(sandbox.url)
      expect(JSON.stringify(preview)).not.toContain(sandbox.token)
    }
    await expect(
      browser.handlers.previewArtifact(
        { environment: 'Local', runId: digestRunId, artifactId: 'no-such-output' },
        http,
      ),
    ).rejects.toBeInstanceOf(BridgeError)
  })

  it('saves outputs and the results workbook into the outputs folder, and shows them', async () => {
    await expect(
      browser.handlers.showInFolder(
        { environment: 'Local', runId: echoRunId, item: 'outputs' },
        http,
      ),
    ).rejects.toMatchObject({ code: 'not-found' })

    const saved = await browser.handlers.downloadRun(
      { environment: 'Local', runId: echoRunId },
      http,
    )
    const runFolder = join(outputs, runFolderName(echoRunId))
    expect(saved).toMatchObject({ folder: runFolder, savedFiles: 2, failed: [] })
    // One folder per row that made an output (the failed row made none).
    expect(readdirSync(runFolder)).toHaveLength(2)
    // The runs list knows it too, from the same record History and the run's page read.
    const listed = await browser.handlers.listRuns({ environment: 'Local' }, http)
    expect(listed.saved).toContainEqual({ runId: echoRunId, folder: runFolder, files: 2 })
    expect(listed.saved?.some((s) => s.runId === digestRunId)).toBe(false)

    const results = await browser.handlers.saveResultsWorkbook(
      { environment: 'Local', runId: echoRunId },
      http,
    )
    // Named by what ran, the workbook sent and when, never by the run id.
    expect(dirname(results.path)).toBe(outputs)
    expect(basename(results.path)).not.toContain(echoRunId)
    expect(basename(results.path)).toMatch(
      /^Row echo - (.+ - )?\d{1,2} [A-Z][a-z]{2} \d{4} \d\d\.\d\d\.\d\d results\.xlsx$/,
    )
    const book = new ExcelJS.Workbook()
    await book.xlsx.readFile(results.path)
    const sheet = book.getWorksheet('Results')!
    const failedRow = sheet.getRow(3)
    expect(failedRow.getCell(1).value).toBe(3)
    expect(String(failedRow.getCell(3).value)).toBe('Failed')
    expect(String(failedRow.getCell(4).value)).toMatch(/fail/)

    // A browser gets the path to copy; the desktop shows it in the file manager.
    expect(
      await browser.handlers.showInFolder(
        { environment: 'Local', runId: echoRunId, item: 'outputs' },
        http,
      ),
    ).toEqual({ path: runFolder, shown: false })
    expect(
      await desktop.handlers.showInFolder(
        { environment: 'Local', runId: echoRunId, item: 'results' },
        ipc,
      ),
    ).toEqual({ path: results.path, shown: true })
    expect(shown).toEqual([results.path])
    // One saved output is shown in its folder (never opened: it could be a program).
    const echo = await connection.client.run(echoRunId)
    const one = await desktop.handlers.showInFolder(
      {
        environment: 'Local',
        runId: echoRunId,
        item: 'artifact',
        artifactId: echo.artifacts[0]!.artifactId,
      },
      ipc,
    )
    expect(one.shown).toBe(true)
    expect(one.path.startsWith(runFolder)).toBe(true)
    expect(shown.at(-1)).toBe(one.path)
    await expect(
      browser.handlers.showInFolder(
        { environment: 'Local', runId: digestRunId, item: 'artifact', artifactId: 'nope' },
        http,
      ),
    ).rejects.toMatchObject({ code: 'not-found' })

    const overview = await browser.handlers.getRunOverview(
      { environment: 'Local', runId: echoRunId },
      http,
    )
    expect(overview).toMatchObject({
      savedFolder: runFolder,
      savedFiles: 2,
      resultsWorkbook: results.path,
    })

    // One saved by an earlier Skill Runner, named by the run id, is still found.
    const older = join(outputs, `${runFolderName(digestRunId)} results.xlsx`)
    writeFileSync(older, 'saved before')
    expect(
      await browser.handlers.getRunOverview({ environment: 'Local', runId: digestRunId }, http),
    ).toMatchObject({ resultsWorkbook: older })
    expect(
      await browser.handlers.showInFolder(
        { environment: 'Local', runId: digestRunId, item: 'results' },
        http,
      ),
    ).toEqual({ path: older, shown: false })
  })
})

describe('history', () => {
  it('lists every submission with its run, cost, downloads and retries, searchable offline', async () => {
    const plan = await desktop.handlers.planRetryFailed(
      { environment: 'Local', runId: echoRunId },
      ipc,
    )
    const retry = await desktop.handlers.confirmSubmission(
      { environment: 'Local', planId: plan.planId, confirmed: true },
      ipc,
    )
    await ended(retry.runId)
    await desktop.handlers.getRunOverview({ environment: 'Local', runId: retry.runId }, ipc)

    const page = await browser.handlers.listHistory({}, http)
    const original = page.items.find((e) => e.runId === echoRunId)!
    expect(original).toMatchObject({
      environment: 'Local',
      target: 'row-echo',
      rows: 3,
      runStatus: 'succeeded',
      costIsEstimate: false,
      downloadedFiles: 2,
      retries: [retry.runId],
    })
    expect(original.costT).toBe((await connection.client.run(echoRunId)).run.actualCostT)
    const retried = page.items.find((e) => e.runId === retry.runId)!
    expect(retried).toMatchObject({ retryOfRunId: echoRunId, rows: 1 })

    const searched = await browser.handlers.listHistory({ search: 'document-digest' }, http)
    expect(searched.items.map((e) => e.runId)).toEqual([digestRunId])
    // The name History shows is searched too, whatever its case ("Document digest").
    const byName = await browser.handlers.listHistory({ search: 'DOCUMENT DIG' }, http)
    expect(byName.items.map((e) => e.runId)).toEqual([digestRunId])
    const echoes = await browser.handlers.listHistory({ search: 'row echo' }, http)
    expect(echoes.items.map((e) => e.runId).sort()).toEqual([echoRunId, retry.runId].sort())
    const limited = await browser.handlers.listHistory({ limit: 1 }, http)
    expect(limited).toMatchObject({ more: true })
    expect(limited.items).toHaveLength(1)
  })
})

describe('history follows its unfinished runs', () => {
  it('shows a run that ended while nobody looked as ended, not Running', async () => {
    const sent = await engine.submissions.journal(connection, {
      target: { kind: 'template', templateId: 'row-echo' },
      rows: [{ message: 'unwatched' }],
    })
    const runId = (await engine.submissions.send(connection, sent)).runId
    // Ended on the service; the app's runs list, detail and runWatch never saw it.
    await ended(runId)
    const page = await browser.handlers.listHistory({}, http)
    expect(page.items.find((e) => e.runId === runId)).toMatchObject({ runStatus: 'succeeded' })
  })
})

describe('creator views', () => {
  it('lists my listings with their review, one review request, and a private template', async () => {
    const first = await browser.handlers.listMyListings({ environment: 'Local', pageSize: 2 }, http)
    expect(first.items).toHaveLength(2)
    expect(first.nextPageToken).not.toBe('')
    const rest = await browser.handlers.listMyListings(
      { environment: 'Local', pageSize: 50, pageToken: first.nextPageToken },
      http,
    )
    const all = [...first.items, ...rest.items]
    const rejected = all.find((l) => l.status === 'rejected')!
    expect(rejected.reviewReason).not.toBe('')
    const review = await browser.handlers.getReviewRequest(
      { environment: 'Local', id: rejected.reviewRequestId },
      http,
    )
    expect(review).toMatchObject({ listingId: rejected.id, status: 'rejected' })
    const searched = await browser.handlers.listMyListings(
      { environment: 'Local', search: rejected.displayName },
      http,
    )
    expect(searched.items.map((l) => l.id)).toContain(rejected.id)

    const template = await browser.handlers.getPrivateTemplate(
      { environment: 'Local', templateId: 'weekly-status-report' },
      http,
    )
    expect(template.versions.map((v) => v.versionNumber)).toEqual([1, 2])
    await expect(
      browser.handlers.getPrivateTemplate({ environment: 'Local', templateId: 'nope' }, http),
    ).rejects.toMatchObject({ code: 'not-found' })
  })
})

describe('notifications', () => {
  it('knows which runs were submitted from this device', () => {
    expect(isOwnRun(engine, 'Local', echoRunId)).toBe(true)
    expect(isOwnRun(engine, 'Local', 'run_from_elsewhere')).toBe(false)
    expect(existsSync(outputs)).toBe(true)
  })
})
