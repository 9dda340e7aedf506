/**
 * The one paginator: follows opaque page tokens (the interface's only way to page) until the
 * list ends or `limit` items are in hand, never asking for more than a page's maximum.
 */

export interface Page<T> {
  items: T[]
  nextPageToken: string
  totalCount?: number
}

export async function paginate<T>(
  fetchPage: (request: { pageToken: string | undefined; pageSize: number }) => Promise<Page<T>>,
  options: { limit?: number | undefined; maxPageSize: number },
): Promise<{ items: T[]; totalCount: number }> {
  const limit = options.limit ?? Number.POSITIVE_INFINITY
  const items: T[] = []
  let totalCount = 0
  let pageToken: string | undefined
  const seen = new Set<string>()
  do {
    const pageSize = Math.min(options.maxPageSize, Math.max(1, limit - items.length))
    const page = await fetchPage({ pageToken, pageSize })
    totalCount = page.totalCount ?? 0
    items.push(...page.items.slice(0, limit - items.length))
    pageToken = page.nextPageToken || undefined
    // A service that hands back a token it gave before would page forever.
    if (pageToken !== undefined) {
      if (seen.has(pageToken)) break
      seen.add(pageToken)
    }
  } while (pageToken && items.length < limit)
  return { items, totalCount: Math.max(totalCount, items.length) }
}

/** A page size the service accepts: a whole number from 1 to the page's maximum. */
export function clampPageSize(value: number | undefined, max: number): number | undefined {
  if (value === undefined) return undefined
  return Math.min(max, Math.max(1, Math.floor(value)))
}
