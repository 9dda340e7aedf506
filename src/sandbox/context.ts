/** What every request handler of the sandbox can reach. */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { BlobStore } from './blobs'
import type { BodyBudget } from './http'
import type { CallbackSender } from './callbacks'
import type { Db } from './db'
import type { PageTokens } from './pagination'
import type { Scheduler } from './scheduler'

export interface SandboxUser {
  userId: number
  name: string
}

export interface SandboxContext {
  db: Db
  blobs: BlobStore
  pageTokens: PageTokens
  scheduler: Scheduler
  callbacks: CallbackSender
  /** Accepted bearer tokens and their users. */
  tokens: ReadonlyMap<string, SandboxUser>
  maxBodyBytes: number
  /** The most rows one runRows or execute request may carry. */
  maxRows: number
  /** Request bodies held at once, across requests (http.ts). */
  bodyBudget?: BodyBudget
  log: (line: string) => void
  /** The sandbox's own address (where it listens), for every URL it writes. */
  origin: () => string
  /** How long an artifact's accessUrl works (ms); undefined: forever. */
  urlTtlMs?: number | undefined
}

export interface Call {
  req: IncomingMessage
  res: ServerResponse
  url: URL
  /** Decoded path parameters, in order. */
  params: string[]
  /** The signed-in user (routes that need no token get a placeholder with userId 0). */
  user: SandboxUser
  /** The sandbox's own address, for accessUrl values (never taken from the Host header). */
  origin: string
}

/** A JSON answer; a handler that streams its own answer returns undefined. */
export interface Answer {
  status: number
  body: unknown
  headers?: Record<string, string>
}

export type Handler = (
  ctx: SandboxContext,
  call: Call,
) => Promise<Answer | undefined> | Answer | undefined
