/**
 * Run callbacks: when a run that was given a `callbackUrl` ends, its final run summary is POSTed
 * there once. Best effort: http(s) only, a short timeout, failures are logged and never retried
 * or thrown.
 */
import type { RunSummary } from '../shared/contract'

export const CALLBACK_TIMEOUT_MS = 5_000

export class CallbackSender {
  private readonly active = new Set<AbortController>()

  constructor(private readonly log: (line: string) => void) {}

  send(url: string, summary: RunSummary): void {
    let target: URL
    try {
      target = new URL(url)
    } catch {
      return
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') return
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(), CALLBACK_TIMEOUT_MS)
    this.active.add(controller)
    fetch(target, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'skill-runner-sandbox' },
      body: JSON.stringify(summary),
      signal: controller.signal,
      redirect: 'manual',
    })
      .then(async (response) => {
        await response.body?.cancel()
        this.log(`callback for run ${summary.runId}: ${target.origin} answered ${response.status}`)
      })
      .catch((error: unknown) => {
        const detail = error instanceof Error ? error.message : String(error)
        this.log(`callback for run ${summary.runId} to ${target.origin} failed: ${detail}`)
      })
      .finally(() => {
        clearTimeout(timer)
        this.active.delete(controller)
      })
  }

  /** Aborts callbacks still in flight. */
  close(): void {
    for (const controller of this.active) controller.abort()
    this.active.clear()
  }
}
