/**
 * What a History search matches, as History shows a submission: its file, template or listing,
 * run id, state, the run's status and "finished with failed" rows, the environment's name, and
 * its date as an ISO day (2026-11-28) or as the window writes it ("Nov 28", "28 Nov 2026").
 */

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
]

/** The words History shows for a run that ended with rows failed or cancelled. */
const FINISHED_WITH_FAILED = 'finished with failed rows'

/** A `LIKE` pattern that matches no day SQLite's `date()` writes. */
const NO_DAY = 'no day'

/**
 * The day a search names as a date is shown ("Nov 28", "28 November", "Nov 28, 2026"), as a
 * `LIKE` pattern over `YYYY-MM-DD`; null when it names no such day.
 */
export function shownDayPattern(search: string): string | null {
  const words = search
    .toLocaleLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
  if (words.length < 2 || words.length > 3) return null
  let month = 0
  let day = 0
  let year = ''
  for (const word of words) {
    const named = word.length >= 3 ? MONTHS.findIndex((m) => m.startsWith(word)) + 1 : 0
    if (named && !month) month = named
    else if (/^\d{4}$/.test(word) && !year) year = word
    else if (/^\d{1,2}$/.test(word) && !day && Number(word) >= 1 && Number(word) <= 31)
      day = Number(word)
    else return null
  }
  if (!month || !day) return null
  const monthDay = `${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
  return year ? `${year}-${monthDay}` : `%-${monthDay}`
}

/** The `WHERE` part for a search, with its parameters; `extra` adds terms of its own. */
export function historySearchClause(
  search: string,
  extra: { sql: string; params: (string | number)[] },
) {
  const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  const finishedWithFailed = FINISHED_WITH_FAILED.includes(search.toLocaleLowerCase()) ? 1 : 0
  const seen = `EXISTS (SELECT 1 FROM runs_seen r WHERE r.origin = submissions.origin AND r.run_id = submissions.run_id AND`
  const sql = `(input_filename LIKE ? ESCAPE '\\' OR target_id LIKE ? ESCAPE '\\' OR run_id LIKE ? ESCAPE '\\'
    OR state LIKE ? ESCAPE '\\' OR client_request_id LIKE ? ESCAPE '\\' OR environment LIKE ? ESCAPE '\\'
    OR date(created_at_ms / 1000, 'unixepoch') LIKE ? ESCAPE '\\'
    OR date(created_at_ms / 1000, 'unixepoch', 'localtime') LIKE ?
    OR ${seen} r.status LIKE ? ESCAPE '\\')
    OR (? = 1 AND ${seen} r.status = 'succeeded'
      AND (json_extract(r.summary_json, '$.failedTasks') > 0 OR json_extract(r.summary_json, '$.cancelledTasks') > 0)))${extra.sql})`
  const params = [like, like, like, like, like, like, like]
  return {
    sql,
    params: [
      ...params,
      shownDayPattern(search) ?? NO_DAY,
      like,
      finishedWithFailed,
      ...extra.params,
    ],
  }
}
