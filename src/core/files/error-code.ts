/** The `code` Node puts on a failed file or socket operation ('ENOSPC', 'EACCES', ...), if any. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined
  return typeof error.code === 'string' ? error.code : undefined
}
