/**
 * The checks every request to browser mode's server must pass before anything is answered: the
 * Host it was sent to (this server by its loopback name, which defeats DNS rebinding), the Origin
 * of a Bridge call or event socket, and the per-start secret in a header, the address or the
 * cookie. Comparisons of the secret take the same time whatever the guess.
 */
import type { IncomingMessage } from 'node:http'
import { timingSafeEqual } from 'node:crypto'

export class RequestGate {
  /** Known only once the server listens; no request can arrive before that. */
  private port = 0

  constructor(
    private readonly host: string,
    readonly secret: string,
  ) {}

  listeningOn(port: number): void {
    this.port = port
  }

  /** Host headers this server answers to: its loopback address and `localhost`. */
  allowedHosts(): string[] {
    const port = this.port
    return this.host === '::1'
      ? [`[::1]:${port}`, `localhost:${port}`]
      : [`127.0.0.1:${port}`, `localhost:${port}`]
  }

  allowedOrigins(): string[] {
    return this.allowedHosts().map((h) => `http://${h}`)
  }

  /** One cookie per port, so two servers on this computer never read each other's. */
  cookieName(): string {
    return `skill_runner_${this.port}`
  }

  secretMatches(candidate: string | undefined | null): boolean {
    if (!candidate) return false
    const a = Buffer.from(candidate)
    const b = Buffer.from(this.secret)
    return a.length === b.length && timingSafeEqual(a, b)
  }

  hostOk(req: IncomingMessage): boolean {
    return this.allowedHosts().includes((req.headers.host ?? '').toLowerCase())
  }

  originOk(req: IncomingMessage): boolean {
    const origin = req.headers.origin
    return typeof origin === 'string' && this.allowedOrigins().includes(origin.toLowerCase())
  }

  /** The secret the page's cookie carries, or null without one. */
  cookieSecret(req: IncomingMessage): string | null {
    const header = req.headers.cookie ?? ''
    for (const part of header.split(';')) {
      const [name, ...rest] = part.trim().split('=')
      if (name === this.cookieName()) return rest.join('=')
    }
    return null
  }
}
