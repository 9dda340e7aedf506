/**
 * The progress bar of long work on the command line (runs, uploads, downloads):
 *   run_8f2c…  [███████░░░░░░░░░]  12/40 rows  1.5 rows/s  0:19 left
 *   uploading  [████░░░░░░░░░░░░]  12.0/40.0 MB  2.1 MB/s  0:13 left
 * renderProgress is pure (the clock is passed in) so the figures are tested without waiting.
 */
import { defined } from '../shared/defined'

export type ProgressUnit = 'rows' | 'files' | 'bytes'

export interface ProgressFrame {
  label: string
  done: number
  total: number
  unit: ProgressUnit
  /** When counting started, and how much was done then (a resumed download starts above 0). */
  startedAtMs: number
  doneAtStart?: number
  nowMs: number
  /** Characters of the bar itself. */
  barWidth?: number
  /** Text after the figures, e.g. "1 failed". */
  suffix?: string
  /** The time left in words ("about 12 min left"), told by the caller instead of this bar's clock. */
  leftText?: string
}

const MB = 1024 * 1024

function amount(value: number, unit: ProgressUnit): string {
  return unit === 'bytes' ? (value / MB).toFixed(1) : String(Math.round(value))
}

function unitName(unit: ProgressUnit): string {
  return unit === 'bytes' ? 'MB' : unit
}

/** "0:19", "12:05", "1:02:03". */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const sec = String(s % 60).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`
}

export interface ProgressFigures {
  ratio: number
  /** Units per second since counting started; null until there is something to measure. */
  rate: number | null
  /** Seconds left at that rate; null when unknown. */
  secondsLeft: number | null
}

export function progressFigures(frame: ProgressFrame): ProgressFigures {
  const total = Math.max(0, frame.total)
  const done = Math.min(Math.max(0, frame.done), total || Infinity)
  const ratio = total > 0 ? done / total : 0
  const elapsed = (frame.nowMs - frame.startedAtMs) / 1000
  const progressed = done - (frame.doneAtStart ?? 0)
  const rate = elapsed >= 0.5 && progressed > 0 ? progressed / elapsed : null
  const secondsLeft =
    rate && total > 0 ? (total - done) / rate : done >= total && total > 0 ? 0 : null
  return { ratio, rate, secondsLeft }
}

export function renderProgress(frame: ProgressFrame): string {
  const width = frame.barWidth ?? 20
  const { ratio, rate, secondsLeft } = progressFigures(frame)
  const filled = Math.round(ratio * width)
  const bar = `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}]`
  const unit = unitName(frame.unit)
  const figures = `${amount(frame.done, frame.unit)}/${amount(frame.total, frame.unit)} ${unit}`
  const speed =
    rate === null
      ? ''
      : `  ${frame.unit === 'bytes' ? (rate / MB).toFixed(1) : rate < 10 ? rate.toFixed(1) : Math.round(rate)} ${unit}/s`
  const finished = frame.total > 0 && frame.done >= frame.total
  const left = finished
    ? `  done in ${clock((frame.nowMs - frame.startedAtMs) / 1000)}`
    : frame.leftText !== undefined
      ? frame.leftText && `  ${frame.leftText}`
      : secondsLeft === null
        ? ''
        : `  ${clock(secondsLeft)} left`
  const suffix = frame.suffix ? `  ${frame.suffix}` : ''
  return `${frame.label}  ${bar}  ${figures}${speed}${left}${suffix}`
}

/** Where a progress bar is drawn; Output implements it on stderr. */
export interface ProgressSink {
  /** Redraws the line on a terminal; elsewhere prints it (the bar throttles how often). */
  progress(line: string): void
  endProgress(): void
  /** Whether the line is redrawn in place (a terminal) or printed as new lines (a log). */
  redraws: boolean
}

export interface ProgressBar {
  /** `leftText`, when given, replaces the bar's own estimate of the time left. */
  update(done: number, total: number, suffix?: string, leftText?: string): void
  end(): void
}

/**
 * A bar that redraws at most every 100 ms on a terminal, and prints a line at most every 5 s
 * (and the last one) when stderr is a file or a pipe, so logs stay short.
 */
export function startProgressBar(
  sink: ProgressSink,
  label: string,
  unit: ProgressUnit,
  now: () => number = Date.now,
): ProgressBar {
  const startedAtMs = now()
  let doneAtStart: number | undefined
  let lastDrawn = -Infinity
  let lastLine = ''
  let finishedDrawn = false
  const every = sink.redraws ? 100 : 5000
  return {
    update(done, total, suffix, leftText) {
      doneAtStart ??= done
      const t = now()
      const finished = total > 0 && done >= total
      if (finishedDrawn || (t - lastDrawn < every && !finished)) return
      finishedDrawn = finished
      const line = renderProgress({
        label,
        done,
        total,
        unit,
        startedAtMs,
        doneAtStart,
        nowMs: t,
        suffix,
        ...defined({ leftText }),
      })
      if (line === lastLine) return
      lastDrawn = t
      lastLine = line
      sink.progress(line)
    },
    end() {
      sink.endProgress()
    },
  }
}
