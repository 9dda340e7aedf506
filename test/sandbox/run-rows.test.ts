import { describe, expect, it } from 'vitest'
import {
  officialTemplateSchemaSchema,
  paths,
  runDetailSchema,
  runListSchema,
  runRowsAcceptanceSchema,
} from '../../src/shared/contract'
import { useCallbackReceiver } from '../helpers/callback-receiver'
import { call, requestId, useTestSandbox, waitForRun } from '../helpers/sandbox'

const productRow = {
  productName: 'Bamboo cutting board',
  category: 'Kitchen',
  keyFeatures: ['Made from FSC bamboo', 'Juice groove'],
  price: 24.9,
  stockCount: 120,
  launchDate: '2025-04-01',
  productPage: 'https://shop.example.com/p/bamboo',
  ecoFriendly: true,
  tone: 'friendly',
}

describe('sandbox: official templates and runRows', () => {
  const sb = useTestSandbox()

  it('serves the schema of every demo template, covering every field type', async () => {
    const types = new Set<string>()
    for (const id of ['product-description-writer', 'support-ticket-triage', 'document-digest', 'row-echo']) {
      const result = await call(sb, paths.templateSchema(id))
      expect(result.status).toBe(200)
      const schema = officialTemplateSchemaSchema.parse(result.body)
      expect(schema.templateId).toBe(id)
      expect(schema.columns.length).toBe(schema.fields.length)
      expect(schema.instructions.length).toBeGreaterThan(0)
      expect(schema.sampleRows.length).toBeGreaterThan(0)
      schema.fields.forEach((f) => types.add(f.type))
    }
    expect([...types].sort()).toEqual(
      ['boolean', 'date', 'email', 'enum', 'file', 'integer', 'number', 'string', 'text', 'url'].sort(),
    )
  })

  it('answers 404 for an unknown template', async () => {
    const schema = await call<{ error: string }>(sb, paths.templateSchema('no-such-template'))
    expect(schema.status).toBe(404)
    expect(schema.body.error).toContain('no-such-template')
    const rows = await call(sb, paths.runRows('no-such-template'), {
      body: { clientRequestId: requestId(), rows: [{ a: 'b' }] },
    })
    expect(rows.status).toBe(404)
  })

  it('accepts rows with 202, runs every task, and adds up counters and costs', async () => {
    const accepted = await call(sb, paths.runRows('product-description-writer'), {
      body: {
        clientRequestId: requestId(),
        rows: [productRow, { ...productRow, productName: 'Water bottle', category: 'Outdoor' }],
      },
    })
    expect(accepted.status).toBe(202)
    const acceptance = runRowsAcceptanceSchema.parse(accepted.body)
    expect(acceptance.status).toBe('queued')
    expect(acceptance.acceptedAtUnix).toBeGreaterThan(1_600_000_000)

    const detail = runDetailSchema.parse(await waitForRun(sb, acceptance.runId))
    expect(detail.run).toMatchObject({
      runId: acceptance.runId,
      status: 'succeeded',
      sourceType: 'official_template',
      templateKey: 'product-description-writer',
      templateName: 'Product description writer',
      totalTasks: 2,
      completedTasks: 2,
      failedTasks: 0,
      cancelledTasks: 0,
      estimatedCostT: 10,
      actualCostT: 10,
      firstErrorMessage: '',
    })
    expect(detail.run.definitionHash).toMatch(/^sha256:/)
    expect(detail.run.startedAtUnix).toBeGreaterThanOrEqual(detail.run.createdAtUnix)
    expect(detail.run.completedAtUnix).toBeGreaterThanOrEqual(detail.run.startedAtUnix)
    expect(detail.market).toBeUndefined()
    expect(detail.tasks.map((t) => [t.sourceRowIndex, t.status, t.artifactCount])).toEqual([
      [0, 'succeeded', 1],
      [1, 'succeeded', 1],
    ])
    expect(detail.artifacts).toHaveLength(2)
    const summary = detail.artifacts[0]!
    expect(summary.mimeType).toBe('text/plain')
    expect(summary.inlineText).toContain('Bamboo cutting board')
    expect(summary.accessUrl.startsWith(sb.url)).toBe(true)
    expect(detail.tasks.map((t) => t.taskId)).toContain(summary.taskId)
  })

  it('fails a row containing [[fail]] with a message naming the field; the run still succeeds', async () => {
    const accepted = await call<{ runId: string }>(sb, paths.runRows('product-description-writer'), {
      body: {
        clientRequestId: requestId(),
        rows: [productRow, { ...productRow, productName: 'Broken [[fail]] kettle' }, productRow],
      },
    })
    const detail = await waitForRun(sb, accepted.body.runId)
    expect(detail.run).toMatchObject({
      status: 'succeeded',
      totalTasks: 3,
      completedTasks: 2,
      failedTasks: 1,
      estimatedCostT: 15,
      actualCostT: 10,
    })
    const failed = detail.tasks.find((t) => t.status === 'failed')!
    expect(failed.sourceRowIndex).toBe(1)
    expect(failed.errorMessage).toContain('productName')
    expect(failed.artifactCount).toBe(0)
    expect(detail.run.firstErrorMessage).toBe(failed.errorMessage)
  })

  it('marks a run failed when no task succeeds', async () => {
    const accepted = await call<{ runId: string }>(sb, paths.runRows('row-echo'), {
      body: { clientRequestId: requestId(), rows: [{ message: '[[fail]]' }, { message: 'x', details: 'a [[fail]] b' }] },
    })
    const detail = await waitForRun(sb, accepted.body.runId)
    expect(detail.run).toMatchObject({ status: 'failed', completedTasks: 0, failedTasks: 2, actualCostT: 0 })
    expect(detail.tasks[1]!.errorMessage).toContain('details')
  })

  it('serves file-mode outputs at accessUrl only', async () => {
    const accepted = await call<{ runId: string }>(sb, paths.runRows('row-echo'), {
      body: { clientRequestId: requestId(), rows: [{ message: 'héllo', sequence: 7 }] },
    })
    const detail = await waitForRun(sb, accepted.body.runId)
    const artifact = detail.artifacts[0]!
    expect(artifact.inlineText).toBe('')
    const response = await fetch(artifact.accessUrl, { headers: { Authorization: `Bearer ${sb.token}` } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    const text = await response.text()
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(text)))
    expect(JSON.parse(text)).toEqual({ rowIndex: 0, values: { message: 'héllo', sequence: 7 } })
  })

  it('copies a run-scoped value sent in the first row only to every row', async () => {
    const { tone: _tone, ...withoutTone } = productRow
    const accepted = await call<{ runId: string }>(sb, paths.runRows('product-description-writer'), {
      body: { clientRequestId: requestId(), rows: [productRow, withoutTone] },
    })
    expect(accepted.status).toBe(202)
    const conflicting = await call<{ error: string }>(sb, paths.runRows('product-description-writer'), {
      body: { clientRequestId: requestId(), rows: [productRow, { ...productRow, tone: 'formal' }] },
    })
    expect(conflicting.status).toBe(400)
    expect(conflicting.body.error).toContain('rows[1].tone')
  })

  it('rejects rows that do not match the schema with 400 naming row and field', async () => {
    const cases: [unknown[], RegExp][] = [
      [[{ ...productRow, price: 'cheap' }], /rows\[0\]\.price: expected a number/],
      [[{ ...productRow, stockCount: 1.5 }], /rows\[0\]\.stockCount: expected a whole number/],
      [[{ ...productRow, category: 'Cars' }], /rows\[0\]\.category: "Cars" is not one of/],
      [[{ ...productRow, launchDate: '2025-02-30' }], /launchDate: "2025-02-30" is not a real date/],
      [[{ ...productRow, launchDate: '01/04/2025' }], /launchDate: expected a date/],
      [[{ ...productRow, productPage: 'shop.example.com' }], /productPage: .* not an http\(s\) address/],
      [[{ ...productRow, ecoFriendly: 'yes' }], /ecoFriendly: expected true or false/],
      [[{ ...productRow, keyFeatures: 'one' }], /keyFeatures: takes a list/],
      [[productRow, { ...productRow, productName: '' }], /rows\[1\]\.productName: is required/],
      [[{ ...productRow, colour: 'red' }], /rows\[0\]\.colour: is not a field/],
      [[], /rows is empty/],
    ]
    for (const [rows, message] of cases) {
      const result = await call<{ error: string }>(sb, paths.runRows('product-description-writer'), {
        body: { clientRequestId: requestId(), rows },
      })
      expect(result.status, JSON.stringify(rows)).toBe(400)
      expect(result.body.error).toMatch(message)
    }
  })

  it('checks file values: one kind, an accepted kind, and an upload of the caller', async () => {
    const base = { title: 'Report' }
    const cases: [unknown, RegExp][] = [
      [{ inputAssetId: 'asset_missing' }, /not one of your uploaded input assets/],
      [{ url: 'https://x.example/a.pdf', text: 'both' }, /expected a file as/],
      ['just a path.pdf', /expected a file as/],
      [{ url: 'ftp://x.example/a.pdf' }, /not an http\(s\) address/],
    ]
    for (const [document, message] of cases) {
      const result = await call<{ error: string }>(sb, paths.runRows('document-digest'), {
        body: { clientRequestId: requestId(), rows: [{ ...base, document }] },
      })
      expect(result.status, JSON.stringify(document)).toBe(400)
      expect(result.body.error).toMatch(message)
    }
    const textNotAccepted = await call<{ error: string }>(sb, paths.runRows('document-digest'), {
      body: { clientRequestId: requestId(), rows: [{ ...base, document: { text: 'x' }, attachments: [{ text: 'y' }] }] },
    })
    expect(textNotAccepted.status).toBe(400)
    expect(textNotAccepted.body.error).toMatch(/attachments: item 1: a file given as text is not accepted/)
  })

  it('rejects bad bodies with 400 and a message, never 500', async () => {
    const template = paths.runRows('row-echo')
    const cases: [unknown, RegExp][] = [
      ['{"rows": [', /not valid JSON/],
      ['', /empty/],
      ['[1,2]', /JSON object/],
      ['"text"', /JSON object/],
      [{ rows: [{ message: 'x' }] }, /clientRequestId is missing/],
      [{ clientRequestId: requestId() }, /rows is missing/],
      [{ clientRequestId: 7, rows: [] }, /clientRequestId/],
      [{ clientRequestId: requestId(), rows: 'x' }, /rows/],
      [{ clientRequestId: requestId(), rows: [1] }, /rows\.0/],
      [{ clientRequestId: requestId(), rows: [{ message: 'x' }], callbackUrl: 'not a url' }, /callbackUrl/],
      [{ clientRequestId: requestId(), rows: [{ message: 'x' }], callbackUrl: 'file:///etc/passwd' }, /callbackUrl/],
    ]
    for (const [body, message] of cases) {
      const result = await call<{ error: string }>(sb, template, { method: 'POST', body })
      expect(result.status, JSON.stringify(body)).toBe(400)
      expect(result.body.error).toMatch(message)
    }
  })

  it('answers the first answer again for the same clientRequestId and body, and 409 for another body', async () => {
    const id = requestId()
    const body = { clientRequestId: id, rows: [{ message: 'once' }] }
    const before = await call<{ totalCount: number }>(sb, paths.runs())
    const first = await call<{ runId: string }>(sb, paths.runRows('row-echo'), { body })
    const again = await call<{ runId: string }>(sb, paths.runRows('row-echo'), { body })
    expect(first.status).toBe(202)
    expect(again.status).toBe(202)
    expect(again.body).toEqual(first.body)
    const after = runListSchema.parse((await call(sb, paths.runs())).body)
    expect(after.totalCount).toBe(before.body.totalCount + 1)
    expect(after.items.filter((r) => r.runId === first.body.runId)).toHaveLength(1)

    const different = await call<{ error: string }>(sb, paths.runRows('row-echo'), {
      body: { clientRequestId: id, rows: [{ message: 'twice' }] },
    })
    expect(different.status).toBe(409)
    expect(different.body.error).toContain(id)
    const otherTemplate = await call(sb, paths.runRows('product-description-writer'), {
      body: { clientRequestId: id, rows: [productRow] },
    })
    expect(otherTemplate.status).toBe(409)
  })
})

describe('sandbox: run callbacks', () => {
  const sb = useTestSandbox()
  const receiver = useCallbackReceiver()

  it('POSTs the final run summary to callbackUrl once the run ends', async () => {
    const accepted = await call<{ runId: string }>(sb, paths.runRows('row-echo'), {
      body: {
        clientRequestId: requestId(),
        callbackUrl: receiver.url('/hook'),
        rows: [{ message: 'a' }, { message: 'b' }],
      },
    })
    const summary = await receiver.summaryOf(accepted.body.runId)
    expect(receiver.received).toHaveLength(1)
    expect(receiver.received[0]!.path).toBe('/hook')
    expect(summary).toMatchObject({ runId: accepted.body.runId, status: 'succeeded', completedTasks: 2 })
  })

  it('survives a callback address where nobody listens', async () => {
    const accepted = await call<{ runId: string }>(sb, paths.runRows('row-echo'), {
      body: { clientRequestId: requestId(), callbackUrl: 'http://127.0.0.1:9/hook', rows: [{ message: 'a' }] },
    })
    const detail = await waitForRun(sb, accepted.body.runId)
    expect(detail.run.status).toBe('succeeded')
    expect((await call(sb, paths.healthz())).status).toBe(200)
  })
})

describe('sandbox: the row limit of one request (maxRows)', () => {
  const sb = useTestSandbox({ maxRows: 2 })

  it('takes up to maxRows rows and refuses more in words that name the limit', async () => {
    const row = { message: 'hello' }
    const two = await call(sb, paths.runRows('row-echo'), {
      body: { clientRequestId: requestId(), rows: [row, row] },
    })
    expect(two.status).toBe(202)
    const three = await call<{ error: string }>(sb, paths.runRows('row-echo'), {
      body: { clientRequestId: requestId(), rows: [row, row, row] },
    })
    expect(three.status).toBe(400)
    expect(three.body.error).toBe('rows has 3 rows; send at most 2 per request.')
  })
})
