/**
 * When to try a request again, as one pure decision (in the manner of got's
 * calculateRetryDelay): `(failure, attempt, policy, random) -> delay in ms | null`. The API client
 * and the downloads both ask it, so back-off, jitter, Retry-After and the limit live here only.
 * Whether a request may be repeated at all (idempotent) is the caller's to know.
 */

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number
  /** First back-off delay (ms); doubles each time, with jitter. */
  baseDelayMs: number
  /** Longest back-off delay (ms). */
  maxDelayMs: number
  /** Longest Retry-After waited for; a longer one ends the retries. */
  maxRetryAfterMs: number
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 300,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
}

/** What went wrong with one attempt. */
export type Failure =
  /** The service answered with this status (and maybe a Retry-After). */
  | { kind: 'status'; status: number; retryAfterMs?: number | undefined }
  /** No answer: refused, reset, cut off mid-body, DNS. */
  | { kind: 'network' }
  /** No answer in time. */
  | { kind: 'timeout' }
  /** Anything else: not worth another try. */
  | { kind: 'other' }

/** Statuses that say "not now" rather than "no". */
export const RETRYABLE_STATUS: ReadonlySet<number> = new Set([408, 425, 429, 500, 502, 503, 504])

/** Exponential back-off with jitter, never less than a quarter of the ceiling. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1))
  return Math.round(ceiling * (0.25 + 0.75 * random()))
}

/**
 * The delay before attempt `attempt + 1` after `failure` on attempt `attempt` (1 = the first),
 * or null to stop: the limit is reached, the failure is final, or the service asked to wait
 * longer than the policy allows.
 */
export function retryDelay(
  failure: Failure,
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | null {
  if (attempt >= policy.maxAttempts) return null
  switch (failure.kind) {
    case 'network':
    case 'timeout':
      return backoffDelay(attempt, policy, random)
    case 'status': {
      if (!RETRYABLE_STATUS.has(failure.status)) return null
      const asked = failure.retryAfterMs ?? 0
      if (asked > policy.maxRetryAfterMs) return null
      return Math.max(asked, backoffDelay(attempt, policy, random))
    }
    default:
      return null
  }
}
