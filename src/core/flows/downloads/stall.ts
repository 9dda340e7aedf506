/**
 * A download's body with a stall limit: it fails when the service sends nothing for `stallMs`,
 * so a transfer that stopped in the middle is cut (and tried again, resuming) instead of holding
 * the download for ever. There is no limit on the whole transfer: a large file may take as long
 * as it needs while its bytes keep coming.
 */
export function stallGuarded(
  body: ReadableStream<Uint8Array>,
  stallMs: number,
  stalled: () => Error,
): ReadableStream<Uint8Array> {
  const reader = body.getReader()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let timer: ReturnType<typeof setTimeout> | undefined
      const quiet = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(stalled()), stallMs)
      })
      try {
        const next = await Promise.race([reader.read(), quiet])
        if (next.done) controller.close()
        else controller.enqueue(next.value)
      } catch (error) {
        await reader.cancel(error).catch(() => {})
        controller.error(error)
      } finally {
        clearTimeout(timer)
      }
    },
    cancel: (reason) => reader.cancel(reason),
  })
}
