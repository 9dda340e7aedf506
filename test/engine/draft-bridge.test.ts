// The New run screen's draft through the Bridge handlers, with the real engine, the real sandbox
// over HTTP and the real workbook worker: the desktop's own file kept by its path and named back
// only over IPC, a change to it noticed, content a page sent kept as a copy, and a plan made on
// that screen turning the draft into its run once sent (one refused by the spending cap does not).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { BridgeService } from '../../src/core/bridge/service'
import type { Engine } from '../../src/core/engine'
import type { PrepareDraft } from '../../src/shared/bridge'
import { http, ipc } from '../helpers/engine'
import { useBridgeOnSandbox } from '../helpers/bridge-on-sandbox'

let service: BridgeService
let engine: Engine
useBridgeOnSandbox('sr-draft-bridge-', (parts) => ({ service, engine } = parts))

const target = { kind: 'template' as const, templateId: 'row-echo' }
const draft: PrepareDraft = {
  step: 'send',
  target,
  sheet: null,
  mapping: null,
  runValues: {},
  pilot: { on: false, rows: 5 },
  sent: null,
}
const CSV = 'Message,Sequence number\nHello,1\nWorld,2\n'

describe('the draft through the Bridge', () => {
  it('keeps the desktop’s own file by its path, and names it only to the desktop', async () => {
    const h = service.handlers
    const path = join(engine.home, 'orders.csv')
    writeFileSync(path, CSV)
    await h.checkWorkbook(
      {
        environment: 'Local',
        checkId: 'draft-check-1',
        file: { kind: 'path', path, name: 'orders.csv' },
        target,
      },
      ipc,
    )
    await h.saveDraft({ environment: 'Local', draft, checkId: 'draft-check-1' }, ipc)

    const desktop = await h.restoreDraft({ environment: 'Local' }, ipc)
    expect(desktop?.draft).toEqual(draft)
    expect(desktop?.workbook).toMatchObject({ state: 'same', name: 'orders.csv', path })
    const page = await h.restoreDraft({ environment: 'Local' }, http)
    expect(page?.workbook).toMatchObject({ state: 'same', path: null })
    if (page?.workbook?.state !== 'same') throw new Error('expected the same workbook')
    expect(Buffer.from(page.workbook.base64, 'base64').toString()).toBe(CSV)

    writeFileSync(path, `${CSV}Again,3\n`)
    expect((await h.restoreDraft({ environment: 'Local' }, ipc))?.workbook).toEqual({
      state: 'changed',
      name: 'orders.csv',
    })
  })

  it('becomes the run once a plan of the New run screen is sent, never before', async () => {
    const h = service.handlers
    const file = {
      kind: 'bytes' as const,
      name: 'orders.csv',
      base64: Buffer.from(CSV).toString('base64'),
    }
    await h.checkWorkbook({ environment: 'Local', checkId: 'draft-check-2', file, target }, http)
    await h.saveDraft({ environment: 'Local', draft, checkId: 'draft-check-2' }, http)
    expect((await h.restoreDraft({ environment: 'Local' }, http))?.workbook).toMatchObject({
      state: 'same',
      path: null,
    })

    const plan = await h.planSubmission({ environment: 'Local', file, target }, http)
    await expect(
      h.confirmSubmission(
        { environment: 'Local', planId: plan.planId, confirmed: true, maxCostT: 1 },
        http,
      ),
    ).rejects.toBeTruthy()
    expect((await h.restoreDraft({ environment: 'Local' }, http))?.draft.step).toBe('send')

    const sent = await h.confirmSubmission(
      { environment: 'Local', planId: plan.planId, confirmed: true },
      http,
    )
    const restored = await h.restoreDraft({ environment: 'Local' }, http)
    expect(restored?.draft).toMatchObject({
      step: 'sent',
      target,
      sent: { runId: sent.runId, clientRequestId: sent.clientRequestId },
    })
    expect(restored?.workbook).toBeNull()

    await h.clearDraft({ environment: 'Local' }, http)
    expect(await h.restoreDraft({ environment: 'Local' }, http)).toBeNull()
  })
})
