// Browser mode sends a workbook as bytes and never a path: its file cells are filled from the
// files the page uploaded first (uploadFiles), matched by the cell's text. Through the Bridge over
// "http", with the real engine and the real sandbox's document-digest template.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { BridgeService } from '../../src/core/bridge/service'
import { createDispatch } from '../../src/shared/bridge/dispatch'
import { paths, type RunList } from '../../src/shared/contract'
import { http } from '../helpers/engine'
import { useBridgeOnSandbox } from '../helpers/bridge-on-sandbox'
import { call, waitForRun, type TestSandbox } from '../helpers/sandbox'

let sandbox: TestSandbox
let service: BridgeService
const target = { kind: 'template' as const, templateId: 'document-digest' }

useBridgeOnSandbox('sr-browser-files-', (parts) => ({ sandbox, service } = parts))

function csv(rows: [string, string][]) {
  const text = ['document,title', ...rows.map(([d, t]) => `${d},${t}`)].join('\n')
  return {
    kind: 'bytes' as const,
    name: 'digest.csv',
    base64: Buffer.from(text).toString('base64'),
  }
}

function bytes(name: string, text: string) {
  return { kind: 'bytes' as const, name, base64: Buffer.from(text).toString('base64') }
}

async function runCount(): Promise<number> {
  const list = await call<RunList>(sandbox, paths.runs(), { token: sandbox.token })
  return list.body.totalCount
}

describe('a workbook sent as bytes with the files its cells name', () => {
  it('puts the uploads in the file cells, and the run digests those files', async () => {
    const report = 'Quarterly figures, page one.\n'
    const notes = 'Meeting notes.\n'
    const uploaded = await service.handlers.uploadFiles(
      {
        environment: 'Local',
        files: [bytes('docs/report.txt', report), bytes('notes.txt', notes)],
      },
      http,
    )
    const id = new Map(uploaded.assets.map((a) => [a.name, a.inputAssetId]))
    const plan = await service.handlers.planSubmission(
      {
        environment: 'Local',
        file: csv([
          ['docs/report.txt', 'Report'],
          ['notes.txt', 'Notes'],
          ['./docs/report.txt', 'Report again'],
        ]),
        target,
        fileAssets: [
          { path: 'docs/report.txt', inputAssetId: id.get('docs/report.txt')! },
          { path: 'notes.txt', inputAssetId: id.get('notes.txt')! },
        ],
      },
      http,
    )
    expect(plan.validation).toMatchObject({ valid: true, rowErrors: [] })
    expect(plan.rowCount).toBe(3)
    expect(plan.planId).not.toBe('')

    const sent = await service.handlers.confirmSubmission(
      { environment: 'Local', planId: plan.planId, confirmed: true },
      http,
    )
    const detail = await waitForRun(sandbox, sent.runId)
    expect(detail.run.status).toBe('succeeded')
    expect(detail.tasks.map((t) => t.status)).toEqual(['succeeded', 'succeeded', 'succeeded'])
    // The service digested the uploaded contents, not some file on the engine's computer.
    const digests = detail.artifacts.map((a) => a.inlineText).join('\n')
    expect(digests).toContain(createHash('sha256').update(report).digest('hex'))
    expect(digests).toContain(createHash('sha256').update(notes).digest('hex'))
  })

  it('lists a cell naming a file not uploaded as a row error, and sends nothing', async () => {
    const uploaded = await service.handlers.uploadFiles(
      { environment: 'Local', files: [bytes('a.txt', 'A\n')] },
      http,
    )
    const before = await runCount()
    const plan = await service.handlers.planSubmission(
      {
        environment: 'Local',
        // /etc/hostname exists on the engine's computer: a page's workbook must never reach it.
        file: csv([
          ['a.txt', 'Uploaded'],
          ['missing.txt', 'Not uploaded'],
          ['/etc/hostname', 'A path on the server'],
        ]),
        target,
        fileAssets: [{ path: 'a.txt', inputAssetId: uploaded.assets[0]!.inputAssetId }],
      },
      http,
    )
    expect(plan.validation.valid).toBe(false)
    expect(plan.planId).toBe('')
    const errors = plan.validation.rowErrors.map((e) => e.error)
    expect(errors).toHaveLength(2)
    expect(errors[0]).toMatch(/missing\.txt' was not uploaded: drop the folder/)
    expect(errors[1]).toMatch(/\/etc\/hostname' was not uploaded/)
    expect(await runCount()).toBe(before)
  })

  it('refuses more uploads than a workbook can name', async () => {
    const many = Array.from({ length: 5001 }, (_, i) => ({ path: `f${i}.txt`, inputAssetId: 'x' }))
    const dispatch = createDispatch(service.handlers)
    const answer = await dispatch(
      'planSubmission',
      { environment: 'Local', file: csv([['a.txt', 'A']]), target, fileAssets: many },
      http,
    )
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } })
  })
})
