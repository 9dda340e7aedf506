/**
 * How far the JavaScript heap of a process that hosts the engine for hours (the desktop app's
 * main process, browser mode) may grow past what is live before V8 collects it whole.
 *
 * V8 lets it reach up to about four times what was live after its last full collection. The
 * engine makes much garbage that lives for a moment (each look at a running part of 10,000 rows
 * parses and stores megabytes), so with some 35 MB live the heap stood at 150-190 MB between
 * collections while a big run was watched. Held to half again what is live, it stood under
 * 110 MB in the same bench (bench/big-run.bench.ts), for more frequent collections of a small
 * heap. Figures: docs/performance.md.
 */
import { setFlagsFromString } from 'node:v8'

const HEAP_GROWING_PERCENT = 50

/** Sets the heap's growth for this process; called once where an engine host starts. */
export function keepHeapNearLive(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
}
