/**
 * Who may call the sandbox: the users of the seed and one per accepted token (or the demo user),
 * and the bearer-token check every authenticated route goes through.
 */
import { randomBytes } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { SandboxContext, SandboxUser } from './context'
import { type Db, type UserRow, getMeta, getRow, run, setMeta } from './db'
import { HttpError } from './http'
import { SANDBOX_DEMO_TOKEN } from './options'
import { applySeedUsers, type Seed } from './seed'

export interface AcceptedUsers {
  accepted: Map<string, SandboxUser>
  firstUserId: number
  demoToken: string | undefined
}

/** Sets up users: the seed's, then one per token (or the demo user). First user first. */
export function setUpUsers(db: Db, seed: Seed | undefined, tokens: string[]): AcceptedUsers {
  if (seed) applySeedUsers(db, seed)
  const accepted = new Map<string, SandboxUser>()
  const ensure = (token: string, name: (id: number) => string): SandboxUser => {
    const existing = getRow<UserRow>(db, 'SELECT * FROM users WHERE token = ?', token)
    if (existing) return { userId: existing.user_id, name: existing.name }
    const next =
      (getRow<{ id: number | null }>(db, 'SELECT max(user_id) AS id FROM users')?.id ?? 0) + 1
    run(db, 'INSERT INTO users (user_id, name, token) VALUES (?, ?, ?)', next, name(next), token)
    return { userId: next, name: name(next) }
  }
  const firstUsers: SandboxUser[] = []
  let demoToken: string | undefined
  if (tokens.length === 0) {
    demoToken = SANDBOX_DEMO_TOKEN
    firstUsers.push(ensure(SANDBOX_DEMO_TOKEN, () => 'Sandbox demo user'))
    accepted.set(SANDBOX_DEMO_TOKEN, firstUsers[0]!)
  }
  for (const token of tokens) {
    const user = ensure(token, (id) => `User ${id}`)
    firstUsers.push(user)
    accepted.set(token, user)
  }
  for (const user of seed?.users ?? []) {
    if (user.token) accepted.set(user.token, { userId: user.userId, name: user.name })
  }
  return { accepted, firstUserId: firstUsers[0]!.userId, demoToken }
}

/** The key that signs page tokens, kept in the database so tokens survive a restart. */
export function pageTokenSecret(db: Db): Buffer {
  const stored = getMeta(db, 'page_token_secret')
  if (stored) return Buffer.from(stored, 'hex')
  const secret = randomBytes(32)
  setMeta(db, 'page_token_secret', secret.toString('hex'))
  return secret
}

const BEARER = /^Bearer\s+(\S+)\s*$/i

export function authenticate(ctx: SandboxContext, req: IncomingMessage): SandboxUser {
  const header = req.headers.authorization
  const challenge = { 'WWW-Authenticate': 'Bearer realm="skill-runner-sandbox"' }
  if (!header) {
    throw new HttpError(
      401,
      'The API token is missing. Send it as "Authorization: Bearer <token>" (the sandbox prints its demo token when it starts).',
      challenge,
    )
  }
  const token = BEARER.exec(header)?.[1]
  const user = token ? ctx.tokens.get(token) : undefined
  if (!user) {
    throw new HttpError(
      401,
      'The API token is not valid for this sandbox. Check the token, or use the one the sandbox printed when it started.',
      challenge,
    )
  }
  return user
}
