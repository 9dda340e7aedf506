/**
 * The seed file of INTERFACES.md (`--seed FILE`): users, official templates, marketplace
 * listings, private templates and review requests. It is validated with zod before anything is
 * stored, and a bad entry stops the start with a message that names it.
 */
import { readFile } from 'node:fs/promises'
import * as z from 'zod'
import {
  creatorListingSchema,
  listingInputSchemaSchema,
  officialTemplateSchemaSchema,
  privateTemplateSchema,
  reviewRequestSchema,
  type ListingInputSchema,
} from '../shared/contract'
import { type Db, run } from './db'
import { sha256Hex } from './ids'
import { pastRunSchema, storePastRuns } from './past-runs'
import { ARTIFACT_MODES, SKILL_NAMES } from './skills/names'

const skill = z.enum(SKILL_NAMES)
const artifactMode = z.enum(ARTIFACT_MODES).optional()
const userId = z.number().int().positive()

const seedUserSchema = z.strictObject({
  userId,
  name: z.string().min(1),
  /** A user without a token owns content but cannot sign in (e.g. another creator). */
  token: z.string().min(1).optional(),
})

const seedOfficialTemplateSchema = z.strictObject({
  skill,
  /** Cost of one task in the environment's smallest unit (default 5). */
  taskCostT: z.number().int().min(0).optional(),
  artifactMode,
  schema: officialTemplateSchemaSchema,
})

const seedMarketListingSchema = z.strictObject({
  skill,
  ownerUserId: userId,
  artifactMode,
  /** When the listing was created; decides the `createdAt desc` order (default: file order). */
  createdAtUnix: z.number().int().min(0).optional(),
  listing: creatorListingSchema,
  schema: listingInputSchemaSchema,
})

const seedPrivateTemplateSchema = z.strictObject({
  ownerUserId: userId,
  template: privateTemplateSchema,
})

const seedReviewRequestSchema = z.strictObject({
  ownerUserId: userId,
  request: reviewRequestSchema,
})

export const seedFileSchema = z.strictObject({
  users: z.array(seedUserSchema).optional().default([]),
  officialTemplates: z.array(seedOfficialTemplateSchema).optional().default([]),
  marketListings: z.array(seedMarketListingSchema).optional().default([]),
  privateTemplates: z.array(seedPrivateTemplateSchema).optional().default([]),
  reviewRequests: z.array(seedReviewRequestSchema).optional().default([]),
  /** Finished runs in the past (past-runs.ts), for history and usage over months. */
  pastRuns: z.array(pastRunSchema).optional().default([]),
})

/** A seed file as written (descriptive fields may be left out). */
export type SeedFile = z.input<typeof seedFileSchema>
/** A validated seed, with every default filled in. */
export type Seed = z.output<typeof seedFileSchema>

export const DEFAULT_TASK_COST_T = 5

export class SeedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SeedError'
  }
}

export const FIELD_TYPES = [
  'string',
  'text',
  'integer',
  'number',
  'boolean',
  'date',
  'enum',
  'url',
  'email',
  'file',
] as const
const INPUT_KINDS = ['asset', 'url', 'text']
const SCOPES = ['row', 'run']

function formatPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`
    else out += out ? `.${String(part)}` : String(part)
  }
  return out || 'the seed'
}

/** Problems in an input schema that would make its rows impossible to validate. */
export function checkInputSchema(schema: ListingInputSchema, where: string): string[] {
  const problems: string[] = []
  const keys = new Set<string>()
  schema.fields.forEach((field, i) => {
    const at = `${where}.fields[${i}] ("${field.key}")`
    if (keys.has(field.key)) problems.push(`${at}: the key is used twice`)
    keys.add(field.key)
    if (!(FIELD_TYPES as readonly string[]).includes(field.type)) {
      problems.push(`${at}: type "${field.type}" is not one of ${FIELD_TYPES.join(', ')}`)
    }
    if (!SCOPES.includes(field.scope)) {
      problems.push(`${at}: scope "${field.scope}" is not row or run`)
    }
    if (field.type === 'enum' && field.enumValues.length === 0) {
      problems.push(`${at}: an enum field needs enumValues`)
    }
    for (const kind of field.acceptedInputKinds) {
      if (!INPUT_KINDS.includes(kind)) {
        problems.push(`${at}: acceptedInputKinds has "${kind}", expected asset, url or text`)
      }
    }
  })
  schema.columns.forEach((column, i) => {
    if (!keys.has(column.fieldKey)) {
      problems.push(`${where}.columns[${i}]: fieldKey "${column.fieldKey}" names no field`)
    }
  })
  return problems
}

function duplicates(values: readonly (string | number)[]): (string | number)[] {
  const seen = new Set<string | number>()
  const twice = new Set<string | number>()
  for (const value of values) {
    if (seen.has(value)) twice.add(value)
    seen.add(value)
  }
  return [...twice]
}

/**
 * Validates a seed object. Throws a SeedError naming every bad entry (up to ten), e.g.
 * `marketListings[1].listing.status is missing`.
 */
export function parseSeed(value: unknown, source = 'The seed'): Seed {
  const result = seedFileSchema.safeParse(value)
  if (!result.success) {
    const lines = result.error.issues.slice(0, 10).map((issue) => {
      const at = formatPath(issue.path)
      if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) {
        return `${at} is missing`
      }
      return `${at}: ${issue.message}`
    })
    throw new SeedError(`${source} is not valid: ${lines.join('; ')}.`)
  }
  const seed = result.data
  const problems: string[] = []
  // What must not be used twice, and where it is in the seed.
  const unique: [string, (string | number)[]][] = [
    ['users: userId', seed.users.map((u) => u.userId)],
    ['users: token', seed.users.flatMap((u) => (u.token ? [u.token] : []))],
    ['officialTemplates: templateId', seed.officialTemplates.map((t) => t.schema.templateId)],
    ['marketListings: listing.id', seed.marketListings.map((l) => l.listing.id)],
    ['privateTemplates: templateId', seed.privateTemplates.map((t) => t.template.templateId)],
    ['reviewRequests: request.id', seed.reviewRequests.map((r) => r.request.id)],
  ]
  for (const [label, values] of unique) {
    for (const value of duplicates(values))
      problems.push(`${label} ${JSON.stringify(value)} is used twice`)
  }
  seed.officialTemplates.forEach((entry, i) => {
    problems.push(...checkInputSchema(entry.schema, `officialTemplates[${i}].schema`))
  })
  seed.marketListings.forEach((entry, i) => {
    problems.push(...checkInputSchema(entry.schema, `marketListings[${i}].schema`))
  })
  if (problems.length > 0) {
    throw new SeedError(`${source} is not valid: ${problems.slice(0, 10).join('; ')}.`)
  }
  return seed
}

/** Reads and validates a seed file from disk. */
export async function loadSeedFile(path: string): Promise<Seed> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error)
    throw new SeedError(`Cannot read the seed file ${path}: ${detail}`)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error)
    throw new SeedError(`The seed file ${path} is not valid JSON: ${detail}`)
  }
  return parseSeed(value, `The seed file ${path}`)
}

/** Stores the seed's users (before the token users, so their ids are kept). */
export function applySeedUsers(db: Db, seed: Seed): void {
  db.transaction(() => {
    for (const user of seed.users) {
      // A token belongs to one user: take it away from whoever had it before.
      if (user.token) {
        run(
          db,
          'UPDATE users SET token = NULL WHERE token = ? AND user_id != ?',
          user.token,
          user.userId,
        )
      }
      run(
        db,
        `INSERT INTO users (user_id, name, token) VALUES (?, ?, ?)
         ON CONFLICT(user_id) DO UPDATE SET name = excluded.name, token = excluded.token
         WHERE users.name IS NOT excluded.name OR users.token IS NOT excluded.token`,
        user.userId,
        user.name,
        user.token ?? null,
      )
    }
  })()
}

/**
 * Stores the seed's content. Entries replace earlier versions with the same id, so a restart
 * with the same database and seed changes nothing; runs and uploads are kept. An entry that is
 * already stored as it is is not written again: every start of the built-in Sandbox (each CLI
 * command on it) would otherwise rewrite the demo content and wait for the disk. Every owner must
 * be one of `userIds`.
 */
export function applySeedContent(db: Db, seed: Seed, userIds: ReadonlySet<number>): void {
  checkOwners(seed, userIds)
  db.transaction(() => {
    storeOfficialTemplates(db, seed)
    storeMarketListings(db, seed)
    for (const { template, ownerUserId } of seed.privateTemplates)
      storeOwned(db, 'private_templates', template.templateId, ownerUserId, template)
    for (const { request, ownerUserId } of seed.reviewRequests)
      storeOwned(db, 'review_requests', request.id, ownerUserId, request)
    storePastRuns(db, seed.pastRuns)
  })()
}

/** Every owner the seed names must be one of `userIds`. */
function checkOwners(seed: Seed, userIds: ReadonlySet<number>): void {
  const named = (name: string, entries: { ownerUserId: number }[]) =>
    entries.map((e, i): [string, number] => [`${name}[${i}]`, e.ownerUserId])
  const owners = [
    ...named('marketListings', seed.marketListings),
    ...named('privateTemplates', seed.privateTemplates),
    ...named('reviewRequests', seed.reviewRequests),
    ...seed.pastRuns.map((e, i): [string, number] => [`pastRuns[${i}]`, e.ownerUserId]),
  ]
  const unknown = owners.filter(([, owner]) => !userIds.has(owner))
  if (unknown.length > 0) {
    const list = unknown
      .slice(0, 5)
      .map(([where, owner]) => `${where}.ownerUserId ${owner}`)
      .join(', ')
    throw new SeedError(
      `The seed names owners that are not users: ${list}. Add them to "users" or use an existing userId.`,
    )
  }
}

function storeOfficialTemplates(db: Db, seed: Seed): void {
  for (const entry of seed.officialTemplates) {
    const schemaJson = JSON.stringify(entry.schema)
    run(
      db,
      `INSERT INTO official_templates
           (template_id, skill, task_cost_t, artifact_mode, schema_json, definition_hash)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(template_id) DO UPDATE SET
           skill = excluded.skill, task_cost_t = excluded.task_cost_t,
           artifact_mode = excluded.artifact_mode, schema_json = excluded.schema_json,
           definition_hash = excluded.definition_hash
         WHERE official_templates.skill IS NOT excluded.skill
           OR official_templates.task_cost_t IS NOT excluded.task_cost_t
           OR official_templates.artifact_mode IS NOT excluded.artifact_mode
           OR official_templates.definition_hash IS NOT excluded.definition_hash`,
      entry.schema.templateId,
      entry.skill,
      entry.taskCostT ?? DEFAULT_TASK_COST_T,
      entry.artifactMode ?? 'inline',
      schemaJson,
      `sha256:${sha256Hex(schemaJson)}`,
    )
  }
}

function storeMarketListings(db: Db, seed: Seed): void {
  const now = Date.now()
  seed.marketListings.forEach((entry, index) => {
    const schemaJson = JSON.stringify(entry.schema)
    const listing = {
      ...entry.listing,
      ownerUserId: entry.ownerUserId,
      inputSchemaSnapshot: schemaJson,
    }
    const createdAtMs = entry.createdAtUnix !== undefined ? entry.createdAtUnix * 1000 : now + index
    run(
      db,
      `INSERT INTO market_listings
           (listing_id, owner_user_id, skill, artifact_mode, listing_json, schema_json, created_at_ms, position)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(listing_id) DO UPDATE SET
           owner_user_id = excluded.owner_user_id, skill = excluded.skill,
           artifact_mode = excluded.artifact_mode, listing_json = excluded.listing_json,
           schema_json = excluded.schema_json, position = excluded.position,
           created_at_ms = CASE WHEN ?9 THEN excluded.created_at_ms ELSE market_listings.created_at_ms END
         WHERE market_listings.owner_user_id IS NOT excluded.owner_user_id
           OR market_listings.skill IS NOT excluded.skill
           OR market_listings.artifact_mode IS NOT excluded.artifact_mode
           OR market_listings.listing_json IS NOT excluded.listing_json
           OR market_listings.schema_json IS NOT excluded.schema_json
           OR market_listings.position IS NOT excluded.position
           OR (?9 AND market_listings.created_at_ms IS NOT excluded.created_at_ms)`,
      entry.listing.id,
      entry.ownerUserId,
      entry.skill,
      entry.artifactMode ?? 'inline',
      JSON.stringify(listing),
      schemaJson,
      createdAtMs,
      index,
      entry.createdAtUnix !== undefined ? 1 : 0,
    )
  })
}

/** What an entry of each owned table is called: its columns are KIND_id and KIND_json. */
const OWNED_KIND = { private_templates: 'template', review_requests: 'request' } as const

/** Stores an owned entry as JSON, writing only when its owner or its content changed. */
function storeOwned(
  db: Db,
  table: keyof typeof OWNED_KIND,
  id: string,
  ownerUserId: number,
  value: unknown,
) {
  const [key, json] = [`${OWNED_KIND[table]}_id`, `${OWNED_KIND[table]}_json`]
  run(
    db,
    `INSERT INTO ${table} (${key}, owner_user_id, ${json}) VALUES (?, ?, ?)
     ON CONFLICT(${key}) DO UPDATE SET
       owner_user_id = excluded.owner_user_id, ${json} = excluded.${json}
     WHERE ${table}.owner_user_id IS NOT excluded.owner_user_id
       OR ${table}.${json} IS NOT excluded.${json}`,
    id,
    ownerUserId,
    JSON.stringify(value),
  )
}
