/**
 * What the desktop shows outside the window: a native notification when a run ends, and the
 * taskbar / dock progress while runs are active. The decisions are pure functions; index.ts
 * connects them to the engine's events.
 */
import { runEndedMessage } from '../shared/format'
import type { ActivityUpdate, RunEnded } from '../shared/bridge'

/** Taskbar progress: a fraction 0..1 while runs are active, -1 to remove the bar. */
export function taskbarProgress(activity: ActivityUpdate): number {
  if (activity.activeRuns <= 0) return -1
  if (activity.totalTasks <= 0) return 0
  return Math.min(1, Math.max(0, activity.doneTasks / activity.totalTasks))
}

export interface NotificationContent {
  title: string
  body: string
}

export function runEndedNotification(event: RunEnded): NotificationContent {
  const { title, body } = runEndedMessage(event.run)
  return { title, body: `${body} (${event.environment})` }
}

/** The window-level pieces feedback needs (a BrowserWindow has them). */
export interface ProgressTarget {
  isDestroyed(): boolean
  setProgressBar(progress: number): void
}

export interface ShellFeedbackDeps {
  windows: () => Iterable<ProgressTarget>
  notify: (content: NotificationContent) => void
  /**
   * Whether this ended run gets a notification: the notifications setting is on and the run was
   * submitted from this device. Without it, every ended run does.
   */
  shouldNotify?: (event: RunEnded) => boolean
  /** The dock badge on macOS (e.g. the number of active runs); optional elsewhere. */
  setBadge?: (count: number) => void
}

export function createShellFeedback(deps: ShellFeedbackDeps) {
  return {
    onActivity(activity: ActivityUpdate): void {
      const progress = taskbarProgress(activity)
      for (const window of deps.windows()) {
        if (!window.isDestroyed()) window.setProgressBar(progress)
      }
      deps.setBadge?.(Math.max(0, activity.activeRuns))
    },
    onRunEnded(event: RunEnded): void {
      if (deps.shouldNotify && !deps.shouldNotify(event)) return
      deps.notify(runEndedNotification(event))
    },
  }
}
