/** Waits until `test()` is true (or resolves true), looking every 20 ms; fails after `ms`. */
export async function until(
  test: () => boolean | Promise<boolean>,
  ms = 20_000,
): Promise<void> {
  const end = Date.now() + ms
  while (!(await test())) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 20))
  }
}

/**
 * Real timers for code that takes `setTimer` and `clearTimer`, counted: once none is pending
 * and no work is under way, code that acts only on its timers will do nothing more.
 */
export function countedTimers() {
  const pending = new Set<ReturnType<typeof setTimeout>>()
  return {
    setTimer(fn: () => void, ms: number): unknown {
      const timer = setTimeout(() => {
        pending.delete(timer)
        fn()
      }, ms)
      pending.add(timer)
      return timer
    },
    clearTimer(handle: unknown) {
      const timer = handle as ReturnType<typeof setTimeout>
      pending.delete(timer)
      clearTimeout(timer)
    },
    pending: () => pending.size,
  }
}
