/**
 * A sheet sent as parts leaves each part's rows behind once the part is answered: its rows as
 * objects, the JSON text the journal wrote, the body's pieces. They live through the part's
 * send, so V8 moves them to its old generation, which it collects only when that has grown a
 * good deal: left to itself, ten parts of 10,000 rows of 1.5 KB took the heap from 60 to 260 MB
 * before any of it was let go. Asking for a major collection as each part ends keeps what the
 * send holds near one part's worth (docs/performance.md has the figures).
 *
 * V8 offers the collection only to a context made while `--expose-gc` is set: the flag is set
 * for the moment one such context is made, and unset at once, so no other context (a worker's,
 * a page's) is given `gc`.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

type Collect = (options: { type: 'major'; execution: 'async' }) => Promise<void> | undefined

/**
 * A function that has V8 collect the garbage a part left (in a task of its own, after the
 * caller's turn), or that does nothing where V8 refuses the flag.
 */
export function partGarbageCollector(): () => Promise<void> {
  let collect: Collect | undefined
  try {
    setFlagsFromString('--expose-gc')
    collect = runInNewContext('typeof gc === "function" ? gc : undefined') as Collect | undefined
  } catch {
    collect = undefined
  } finally {
    setFlagsFromString('--no-expose-gc')
  }
  return async () => {
    try {
      await collect?.({ type: 'major', execution: 'async' })
    } catch {
      // A collection not made leaves the garbage to V8's own timing: nothing is lost.
    }
  }
}
