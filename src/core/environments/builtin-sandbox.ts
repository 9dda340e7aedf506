/**
 * The built-in Sandbox environment: a local Skill Execution Service with its state under
 * <home>/sandbox. The front doors inject how to start it (core never imports src/sandbox). When
 * another process with the same home (the desktop app, another CLI) already serves it, this one
 * uses that server instead of starting a second one on the same database.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FetchLike } from '../service'

export interface RunningSandbox {
  url: string
  token: string
  close(): Promise<void>
}

/** Starts the sandbox in this process; `dataDir` holds its database. */
export type StartBuiltInSandbox = (options: { dataDir: string }) => Promise<RunningSandbox>

/** The built-in Sandbox's one user token (the sandbox's SANDBOX_DEMO_TOKEN); not a secret. */
export const BUILTIN_SANDBOX_TOKEN = 'sandbox-demo-token'

/**
 * The official templates the built-in Sandbox serves (its demo content), offered on the "New run"
 * screen: the interface has no list of official templates. A sandbox test keeps this in step.
 */
export const BUILTIN_SANDBOX_TEMPLATE_IDS: readonly string[] = [
  'row-echo',
  'product-description-writer',
  'support-ticket-triage',
  'document-digest',
]

/** What a serving process leaves for others: where it listens. No token. */
interface AddressFile {
  url: string
  pid: number
}

export class BuiltInSandbox {
  private running: Promise<RunningSandbox> | null = null
  private ownServer: RunningSandbox | null = null
  readonly dataDir: string
  private readonly addressFile: string

  constructor(
    home: string,
    private readonly start: StartBuiltInSandbox | undefined,
    private readonly fetchImpl: FetchLike,
  ) {
    this.dataDir = join(home, 'sandbox')
    this.addressFile = join(this.dataDir, 'address.json')
  }

  /** Its address when it runs (here or in another process we found), else ''. */
  currentUrl(): string {
    return this.ownServer?.url ?? this.foundUrl
  }
  private foundUrl = ''

  /** The running sandbox: another process's, or one started here. */
  ensure(): Promise<RunningSandbox> {
    this.running ??= this.find().then((found) => found ?? this.startHere())
    this.running.catch(() => {
      this.running = null
    })
    return this.running
  }

  private async find(): Promise<RunningSandbox | null> {
    let address: AddressFile
    try {
      address = JSON.parse(await readFile(this.addressFile, 'utf8')) as AddressFile
    } catch {
      return null
    }
    if (address.pid === process.pid || !isAlive(address.pid)) return null
    try {
      const answer = await this.fetchImpl(`${address.url}/healthz`, {
        signal: AbortSignal.timeout(1500),
      })
      await answer.body?.cancel()
      if (!answer.ok) return null
    } catch {
      return null
    }
    this.foundUrl = address.url
    return { url: address.url, token: BUILTIN_SANDBOX_TOKEN, close: async () => {} }
  }

  private async startHere(): Promise<RunningSandbox> {
    if (!this.start) {
      throw new Error('The built-in Sandbox is not available in this program.')
    }
    await mkdir(this.dataDir, { recursive: true })
    const server = await this.start({ dataDir: this.dataDir })
    this.ownServer = server
    const temp = `${this.addressFile}.${process.pid}.tmp`
    const address: AddressFile = { url: server.url, pid: process.pid }
    await writeFile(temp, JSON.stringify(address))
    await rename(temp, this.addressFile)
    return server
  }

  async close() {
    const own = this.ownServer
    this.ownServer = null
    this.running = null
    if (!own) return
    try {
      const address = JSON.parse(await readFile(this.addressFile, 'utf8')) as AddressFile
      if (address.pid === process.pid) await rm(this.addressFile, { force: true })
    } catch {
      // nothing to clean
    }
    await own.close()
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
