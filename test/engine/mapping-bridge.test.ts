// The column mapping through the Bridge handlers, with the real engine, the real sandbox over
// HTTP and the real workbook worker: a sheet with a title and renamed headers is proposed a
// mapping, confirmed, remembered in the history, and a plan made from the same sheet uses it.
import { describe, expect, it } from 'vitest'
import type { BridgeService } from '../../src/core/bridge/service'
import { http } from '../helpers/engine'
import { useBridgeOnSandbox } from '../helpers/bridge-on-sandbox'

let service: BridgeService
const target = { kind: 'template' as const, templateId: 'row-echo' }

useBridgeOnSandbox('sr-mapping-bridge-', (parts) => ({ service } = parts))

const sheet = {
  kind: 'bytes' as const,
  name: 'own.csv',
  base64: Buffer.from(
    'Messages for March,,\n,,\nText,Seq,Owner\nhello,1,ann\nagain,2,bo\nthird,3,cy\n',
  ).toString('base64'),
}
let checks = 0
const check = (mapping?: Record<string, string | null>) =>
  service.handlers.checkWorkbook(
    {
      environment: 'Local',
      checkId: `mapping-check-${(checks += 1)}`,
      file: sheet,
      target,
      ...(mapping ? { mapping } : {}),
    },
    http,
  )

describe('the column mapping through the Bridge', () => {
  it('proposes, is confirmed and remembered, and a plan of the same sheet uses it', async () => {
    const proposed = await check()
    expect(proposed.valid).toBe(false)
    expect(proposed.mapping).toMatchObject({ source: 'proposed', headerRow: 3 })
    expect(proposed.mapping?.columns.map((c) => [c.header, c.fieldKey, c.samples])).toEqual([
      ['Text', 'message', ['hello', 'again', 'third']],
      ['Seq', 'sequence', ['1', '2', '3']],
      ['Owner', null, ['ann', 'bo', 'cy']],
    ])
    // The header's own complaints give way to one line about the mapping; no row noise.
    expect(proposed.fileErrors).toEqual([
      expect.stringMatching(/not matched to the template’s fields yet/),
    ])
    expect(proposed.problems).toEqual([])

    const refusedPlan = await service.handlers.planSubmission(
      { environment: 'Local', file: sheet, target },
      http,
    )
    expect(refusedPlan.planId).toBe('')

    const confirmed = await check({ Text: 'message', Seq: 'sequence', Owner: null })
    expect(confirmed.valid).toBe(true)
    expect(confirmed.rowCount).toBe(3)
    expect(confirmed.mapping?.source).toBe('given')
    // The grid keeps the user's own headers, in their order.
    expect(confirmed.columns.map((c) => [c.header, c.fieldKey])).toEqual([
      ['Text', 'message'],
      ['Seq', 'sequence'],
      ['Owner', null],
    ])

    const again = await check()
    expect(again.valid).toBe(true)
    expect(again.mapping?.source).toBe('remembered')

    const plan = await service.handlers.planSubmission(
      { environment: 'Local', file: sheet, target },
      http,
    )
    expect(plan.planId).not.toBe('')
    expect(plan.rowCount).toBe(3)
  })
})
