/**
 * The sandbox's built-in demo content, used when no seed file is given (INTERFACES.md): four
 * official templates that together use every field type, marketplace listings in each listing
 * state, a private template with two versions and review requests. The content is data, in
 * demo-content.json, written as a seed file so it goes through the same validation and storage
 * as `--seed`; its fields leave out what every field has by default (see schemaFieldSchema).
 */
import demoContent from './demo-content.json'
import { seedFileSchema, type Seed } from './seed'

/** Stands for the first user's id in demo-content.json (the demo user, or the first token's). */
const DEMO_OWNER = 'demo-user'

/** The demo seed, parsed (defaults filled in); `ownerUserId` is the first user's id. */
export function demoSeed(ownerUserId: number): Seed {
  const owned: unknown = JSON.parse(JSON.stringify(demoContent), (key, value: unknown) =>
    key === 'ownerUserId' && value === DEMO_OWNER ? ownerUserId : value,
  )
  return seedFileSchema.parse(owned)
}
