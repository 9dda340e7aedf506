/** How a failed artifact download is retried, and how it is told to the user when it is not. */
import { ApiError, DEFAULT_RETRY_POLICY, type Failure, type RetryPolicy } from '../../service'
import { UserFacingError } from '../../errors'
import { errorCode } from '../../files/error-code'

/**
 * The transfer ended before the whole file came (cut, stalled, or longer than announced). It is
 * retried, resuming; when every attempt is spent it is reported with its next step, like any
 * other user error. Private to this file: callers make one with downloadCut().
 */
class DownloadCut extends UserFacingError {
  override name = 'DownloadCut'
  readonly category = 'unavailable' as const
  constructor(message: string) {
    super(message, 'Run the download again; it resumes where it stopped.')
  }
}

/** The error a download stops with when the server sent less (or another part) than it said. */
export function downloadCut(message: string): Error {
  return new DownloadCut(message)
}

export function describeFailure(error: unknown): { error: string; nextStep: string } {
  if (error instanceof UserFacingError) return { error: error.message, nextStep: error.nextStep }
  const code = errorCode(error)
  if (code === 'ENOSPC')
    return {
      error: 'The disk is full.',
      nextStep: 'Free some space (or choose another folder) and run the download again.',
    }
  if (code === 'EACCES' || code === 'EPERM')
    return {
      error: 'The folder cannot be written to.',
      nextStep: 'Choose a folder you may write to and run the download again.',
    }
  return {
    error: error instanceof Error ? error.message : String(error),
    nextStep: 'Run the download again; finished files are kept and cut ones resume.',
  }
}

/** Downloads back off from 200 ms (cut files resume, so retries are cheap). */
export const DOWNLOAD_RETRY_POLICY: RetryPolicy = {
  ...DEFAULT_RETRY_POLICY,
  baseDelayMs: 200,
  maxDelayMs: 4000,
}

function isTypeError(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && 'name' in error && error.name === 'TypeError'
  )
}

/** A failed download as the shared retry policy sees it. */
export function failureOf(error: unknown): Failure {
  if (error instanceof ApiError) {
    if (error.kind === 'unreachable') return { kind: 'network' }
    if (error.kind === 'timeout') return { kind: 'timeout' }
    if (error.kind === 'http')
      return { kind: 'status', status: error.status, retryAfterMs: error.retryAfterMs }
    return { kind: 'other' }
  }
  if (error instanceof DownloadCut) return { kind: 'network' }
  const code = errorCode(error)
  // fetch says "terminated" (a TypeError) when a response body breaks off.
  return code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || isTypeError(error)
    ? { kind: 'network' }
    : { kind: 'other' }
}
