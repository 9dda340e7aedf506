/**
 * Failures the sandbox simulates on purpose (`injectFault`), so clients can test their retries
 * and their recovery from lost answers against the real server.
 */
import type { ServerResponse } from 'node:http'
import type { FaultRule } from './options'

/** The injected faults still waiting for a matching request, each with its uses left. */
export class FaultPlan {
  private readonly rules: (FaultRule & { left: number })[] = []

  inject(rule: FaultRule): void {
    this.rules.push({ ...rule, left: rule.times ?? 1 })
  }

  /** The fault for this request, if any; it is used up once its times are spent. */
  take(method: string, rawPath: string): FaultRule | undefined {
    if (this.rules.length === 0) return undefined
    const index = this.rules.findIndex(
      (f) => (!f.method || f.method.toUpperCase() === method) && (!f.path || f.path === rawPath),
    )
    if (index < 0) return undefined
    const fault = this.rules[index]!
    fault.left -= 1
    if (fault.left <= 0) this.rules.splice(index, 1)
    return fault
  }
}

/** Lets `limit` body bytes through, then cuts the connection (a download broken half-way). */
export function cutBodyAfter(res: ServerResponse, limit: number): void {
  let sent = 0
  const write = res.write.bind(res) as (chunk: Buffer, callback?: () => void) => boolean
  const cut = () => setTimeout(() => res.socket?.destroy(), 20)
  const patchedWrite = (chunk: unknown): boolean => {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string)
    const room = limit - sent
    if (room <= 0) return false
    if (bytes.length >= room) {
      sent = limit
      write(bytes.subarray(0, room), cut)
      return false
    }
    sent += bytes.length
    return write(bytes)
  }
  res.write = patchedWrite as typeof res.write
  res.end = ((chunk?: unknown) => {
    if (chunk !== undefined && typeof chunk !== 'function') patchedWrite(chunk)
    if (sent < limit) cut()
    return res
  }) as typeof res.end
}
