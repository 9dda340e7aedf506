/**
 * How browser mode's server answers over HTTP: the same protective headers on every answer
 * (no sniffing, no framing, no referrer, no cross-origin reads, no caching) and never a CORS
 * header, so no other origin can read what it says.
 */
import type { ServerResponse } from 'node:http'

export function baseHeaders(): Record<string, string> {
  return {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  }
}

export function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { ...baseHeaders(), 'Content-Type': 'text/plain; charset=utf-8' })
  res.end(text)
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { ...baseHeaders(), 'Content-Type': 'application/json; charset=utf-8' })
  res.end(JSON.stringify(value))
}
