/** Waits until `test()` is true, looking every 20 ms; fails after `ms`. */
export async function until(test: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms
  while (!test()) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 20))
  }
}
