import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  creatorListingListSchema,
  executionResultSchema,
  inputAssetSchema,
  officialTemplateSchemaSchema,
  paths,
  runDetailSchema,
  runListSchema,
} from '../../src/shared/contract'
import { demoSeed, parseSeed, SeedError, type SeedFile } from '../../src/sandbox'
import { allRows, getMeta, openDatabase, run, setMeta } from '../../src/sandbox/db'
import { call, requestId, startTestSandbox, waitForRun, type TestSandbox } from '../helpers/sandbox'

const seed: SeedFile = {
  users: [
    { userId: 1, name: 'Ada', token: 'tok-ada' },
    { userId: 2, name: 'Grace', token: 'tok-grace' },
  ],
  officialTemplates: [
    {
      skill: 'keywords',
      taskCostT: 7,
      schema: {
        templateId: 'tpl-keywords',
        name: 'Keyword finder',
        columns: [{ fieldKey: 'text', headerLabel: 'Text', order: 0 }],
        fields: [{ key: 'text', label: 'Text', type: 'text', required: true }],
      },
    },
  ],
  marketListings: [
    {
      skill: 'echo',
      ownerUserId: 2,
      listing: {
        id: 'grace-echo',
        displayName: 'Grace echo',
        listingVersionId: 'ge-1',
        publishedVersionId: 'ge-1',
        taskFixedFeeT: 9,
        status: 'published',
        saleStatus: 'on_sale',
        executionAvailabilityStatus: 'available',
      },
      schema: { columns: [], fields: [{ key: 'note', label: 'Note', type: 'string', required: true }] },
    },
  ],
  privateTemplates: [
    {
      ownerUserId: 1,
      template: {
        templateId: 'ada-private',
        name: 'Ada private',
        versions: [{ versionId: 'ap-1', versionNumber: 1 }],
      },
    },
  ],
  reviewRequests: [{ ownerUserId: 2, request: { id: 'rr-1', listingId: 'grace-echo', status: 'approved' } }],
}

describe('sandbox: seed files', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sandbox-seed-test-'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('loads a seed file from disk: users, templates, listings, private templates, review requests', async () => {
    const file = join(dir, 'seed.json')
    await writeFile(file, JSON.stringify(seed))
    const sb = await startTestSandbox({ seed: file, tokens: ['tok-ada'] })
    try {
      const schema = officialTemplateSchemaSchema.parse((await call(sb, paths.templateSchema('tpl-keywords'))).body)
      expect(schema.name).toBe('Keyword finder')
      // The demo content is not loaded when a seed is given.
      expect((await call(sb, paths.templateSchema('row-echo'))).status).toBe(404)

      const accepted = await call<{ runId: string }>(sb, paths.runRows('tpl-keywords'), {
        body: { clientRequestId: requestId(), rows: [{ text: 'kettle kettle lid' }, { text: 'lid' }] },
      })
      const detail = await waitForRun(sb, accepted.body.runId)
      expect(detail.run).toMatchObject({ estimatedCostT: 14, actualCostT: 14 })
      expect(JSON.parse(detail.artifacts[0]!.inlineText)).toMatchObject({
        keywords: [{ word: 'kettle', count: 2 }, { word: 'lid', count: 1 }],
      })

      const graceListings = creatorListingListSchema.parse(
        (await call(sb, paths.creatorListings(), { token: 'tok-grace' })).body,
      )
      expect(graceListings.items).toHaveLength(1)
      expect(graceListings.items[0]).toMatchObject({ id: 'grace-echo', ownerUserId: 2, taskFixedFeeT: 9 })
      expect(JSON.parse(graceListings.items[0]!.inputSchemaSnapshot)).toMatchObject({ fields: [{ key: 'note' }] })
      expect((await call(sb, paths.privateTemplate('ada-private'))).status).toBe(200)
      expect((await call(sb, paths.privateTemplate('ada-private'), { token: 'tok-grace' })).status).toBe(404)
      expect((await call(sb, paths.reviewRequest('rr-1'), { token: 'tok-grace' })).status).toBe(200)
    } finally {
      await sb.close()
    }
  })

  it('a restart on the same database stores a changed seed, and keeps an unchanged one as it is', async () => {
    const dbPath = join(dir, 'restarts.db')
    const changed: SeedFile = {
      ...seed,
      users: [seed.users![0]!, { ...seed.users![1]!, name: 'Grace H.' }],
      officialTemplates: [
        { ...seed.officialTemplates![0]!, taskCostT: 8, schema: { ...seed.officialTemplates![0]!.schema, name: 'Keywords' } },
      ],
      marketListings: [
        { ...seed.marketListings![0]!, listing: { ...seed.marketListings![0]!.listing, taskFixedFeeT: 11 } },
      ],
      privateTemplates: [
        { ...seed.privateTemplates![0]!, template: { ...seed.privateTemplates![0]!.template, name: 'Ada renamed' } },
      ],
      reviewRequests: [{ ownerUserId: 2, request: { id: 'rr-1', listingId: 'grace-echo', status: 'rejected' } }],
    }
    const look = async (given: SeedFile) => {
      const sb = await startTestSandbox({ seed: given, tokens: ['tok-ada'], dbPath })
      try {
        const schema = officialTemplateSchemaSchema.parse((await call(sb, paths.templateSchema('tpl-keywords'))).body)
        const accepted = await call<{ runId: string }>(sb, paths.runRows('tpl-keywords'), {
          body: { clientRequestId: requestId(), rows: [{ text: 'lid' }] },
        })
        const cost = (await waitForRun(sb, accepted.body.runId)).run.estimatedCostT
        const listing = creatorListingListSchema.parse(
          (await call(sb, paths.creatorListings(), { token: 'tok-grace' })).body,
        ).items[0]!
        const template = (await call<{ name: string }>(sb, paths.privateTemplate('ada-private'))).body
        const review = (await call<{ status: string }>(sb, paths.reviewRequest('rr-1'), { token: 'tok-grace' })).body
        return [schema.name, cost, listing.taskFixedFeeT, template.name, review.status]
      } finally {
        await sb.close()
      }
    }
    expect(await look(seed)).toEqual(['Keyword finder', 7, 9, 'Ada private', 'approved'])
    expect(await look(seed)).toEqual(['Keyword finder', 7, 9, 'Ada private', 'approved'])
    expect(await look(changed)).toEqual(['Keywords', 8, 11, 'Ada renamed', 'rejected'])
    expect(await look(seed)).toEqual(['Keyword finder', 7, 9, 'Ada private', 'approved'])
  })

  it('stops with a message naming the bad entry', async () => {
    const broken = structuredClone(seed) as { marketListings: { listing: Record<string, unknown> }[] }
    delete broken.marketListings[0]!.listing.status
    await expect(startTestSandbox({ seed: broken as SeedFile })).rejects.toThrow(
      /marketListings\[0\]\.listing\.status is missing/,
    )
    const wrongSkill = { officialTemplates: [{ skill: 'translate', schema: { templateId: 'x' } }] }
    await expect(startTestSandbox({ seed: wrongSkill as unknown as SeedFile })).rejects.toThrow(
      /officialTemplates\[0\]\.skill/,
    )
    const badField: SeedFile = {
      officialTemplates: [
        { skill: 'echo', schema: { templateId: 'x', fields: [{ key: 'a', type: 'colour' }] } },
      ],
    }
    await expect(startTestSandbox({ seed: badField })).rejects.toThrow(/officialTemplates\[0\]\.schema\.fields\[0\].*colour/)
    const unknownOwner = { privateTemplates: [{ ownerUserId: 77, template: { templateId: 't' } }] }
    await expect(startTestSandbox({ seed: unknownOwner, tokens: ['x'] })).rejects.toThrow(
      /privateTemplates\[0\]\.ownerUserId 77/,
    )
    const typo = { ...seed, marketListing: [] }
    await expect(startTestSandbox({ seed: typo as SeedFile })).rejects.toThrow(/marketListing/)
    const duplicate = { users: [...seed.users!, { userId: 1, name: 'Again', token: 'tok-again' }] }
    await expect(startTestSandbox({ seed: duplicate })).rejects.toThrow(/userId 1 is used twice/)
  })

  it('reports an unreadable or malformed seed file by its path', async () => {
    const missing = join(dir, 'missing.json')
    await expect(startTestSandbox({ seed: missing })).rejects.toThrow(SeedError)
    await expect(startTestSandbox({ seed: missing })).rejects.toThrow(missing)
    const bad = join(dir, 'bad.json')
    await writeFile(bad, '{ "users": [ ')
    await expect(startTestSandbox({ seed: bad })).rejects.toThrow(/bad\.json is not valid JSON/)
  })

  it('keeps the built-in demo content valid as a seed', () => {
    const parsed = parseSeed(demoSeed(1))
    expect(parsed.officialTemplates.length).toBeGreaterThanOrEqual(3)
    const executable = parsed.marketListings.filter(
      (l) => l.listing.status === 'published' && l.listing.listingVersionId === l.listing.publishedVersionId,
    )
    expect(new Set(executable.map((l) => l.listing.taskFixedFeeT)).size).toBeGreaterThanOrEqual(2)
    expect(parsed.privateTemplates[0]!.template.versions).toHaveLength(2)
    expect(parsed.reviewRequests.length).toBeGreaterThanOrEqual(1)
  })
})

describe('sandbox: the built-in demo content across restarts', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sandbox-demo-test-'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  const templateName = async (dbPath: string) => {
    const sb = await startTestSandbox({ dbPath })
    try {
      const answer = await call<{ name?: string }>(sb, paths.templateSchema('row-echo'))
      return answer.status === 200 ? answer.body.name : answer.status
    } finally {
      await sb.close()
    }
  }
  const onDb = <T>(dbPath: string, work: (db: ReturnType<typeof openDatabase>) => T): T => {
    const db = openDatabase(dbPath)
    try {
      return work(db)
    } finally {
      db.close()
    }
  }

  it('stores a missing or changed row again while its parsed content is kept', async () => {
    const dbPath = join(dir, 'kept.db')
    const name = parseSeed(demoSeed(1)).officialTemplates.find(
      (t) => t.schema.templateId === 'row-echo',
    )!.schema.name
    expect(await templateName(dbPath)).toBe(name)
    const version = onDb(dbPath, (db) => getMeta(db, 'demo_content_version'))
    expect(version).toMatch(/^[0-9a-f]{64}$/)
    onDb(dbPath, (db) => run(db, "DELETE FROM official_templates WHERE template_id = 'row-echo'"))
    expect(await templateName(dbPath)).toBe(name)
    onDb(dbPath, (db) =>
      run(db, "UPDATE official_templates SET task_cost_t = 99, definition_hash = 'x'"),
    )
    expect(await templateName(dbPath)).toBe(name)
    const costs = onDb(dbPath, (db) =>
      allRows<{ c: number }>(db, 'SELECT task_cost_t AS c FROM official_templates'),
    )
    expect(costs.length).toBeGreaterThan(0)
    expect(costs.filter((row) => row.c === 99)).toEqual([])
    expect(onDb(dbPath, (db) => getMeta(db, 'demo_content_version'))).toBe(version)
  })

  it('parses the demo content again when the kept version is not the current one', async () => {
    const dbPath = join(dir, 'old.db')
    await templateName(dbPath)
    const version = onDb(dbPath, (db) => getMeta(db, 'demo_content_version'))
    // An older version of the content, kept by an earlier build: it must not be used.
    onDb(dbPath, (db) => {
      setMeta(db, 'demo_content_version', 'older')
      const kept = JSON.parse(getMeta(db, 'demo_content')!) as {
        officialTemplates: { schema: { name: string } }[]
      }
      for (const t of kept.officialTemplates) t.schema.name = 'Old name'
      setMeta(db, 'demo_content', JSON.stringify(kept))
    })
    expect(await templateName(dbPath)).not.toBe('Old name')
    expect(onDb(dbPath, (db) => getMeta(db, 'demo_content_version'))).toBe(version)
  })
})

describe('sandbox: state across restarts with a database file', () => {
  let dir: string
  let dbPath: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sandbox-db-test-'))
    dbPath = join(dir, 'sandbox.db')
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('finishes a queued run after a restart, keeping uploads, ids and page tokens', async () => {
    // A first sandbox whose tasks would take a minute: the run is still queued when it stops.
    let sb: TestSandbox = await startTestSandbox({ dbPath, taskMs: 60_000, concurrency: 1 })
    const upload = await call(sb, paths.upload(), {
      body: { content: Buffer.from('persist me').toString('base64'), contentType: 'text/plain', filename: 'p.txt' },
    })
    const asset = inputAssetSchema.parse(upload.body)
    const body = {
      clientRequestId: requestId(),
      confirm: true,
      listingVersionId: 'press-release-polisher-v1',
      inputRows: [
        { headline: 'One', draft: 'First draft.' },
        { headline: 'Two', draft: 'Second draft.' },
      ],
    }
    const executed = executionResultSchema.parse((await call(sb, paths.execute('press-release-polisher'), { body })).body)
    const queued = await call<{ runId: string }>(sb, paths.runRows('document-digest'), {
      body: { clientRequestId: requestId(), rows: [{ title: 'P', document: { inputAssetId: asset.inputAssetId } }] },
    })
    const before = runDetailSchema.parse((await call(sb, paths.run(executed.runId))).body)
    expect(['queued', 'running']).toContain(before.run.status)
    const page = runListSchema.parse((await call(sb, `${paths.runs()}?pageSize=1`)).body)
    await sb.close()

    sb = await startTestSandbox({ dbPath, taskMs: 5 })
    try {
      const finished = await waitForRun(sb, executed.runId)
      expect(finished.run).toMatchObject({ status: 'succeeded', completedTasks: 2, totalTasks: 2 })
      expect(finished.market).toMatchObject({ transactionStatus: 'settled', finalBuyerPayableT: 24 })
      const digest = await waitForRun(sb, queued.body.runId)
      expect(digest.run.status).toBe('succeeded')
      const file = digest.artifacts.find((a) => a.stepId === 'passthrough')!
      const response = await fetch(file.accessUrl, { headers: { Authorization: `Bearer ${sb.token}` } })
      expect(await response.text()).toBe('persist me')

      const again = await call(sb, paths.execute('press-release-polisher'), { body })
      expect(executionResultSchema.parse(again.body).runId).toBe(executed.runId)
      const next = await call(sb, `${paths.runs()}?pageSize=1&pageToken=${encodeURIComponent(page.nextPageToken)}`)
      expect(next.status).toBe(200)
      expect(runListSchema.parse(next.body).totalCount).toBe(2)
    } finally {
      await sb.close()
    }
  })
})
