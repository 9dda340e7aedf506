/**
 * The engine's events, pushed to every open window over IPC and turned into the desktop's own
 * feedback: a notification when a run sent from this computer ends (if the user wants them),
 * taskbar progress and the dock badge while runs are active.
 */
import { app, Notification } from 'electron'
import type { BridgeService } from '../core/bridge/service'
import type { Engine } from '../core/engine'
import { isOwnRun } from '../core/flows/history/history-view'
import type { AppWindows } from './app-windows'
import { broadcastEvent } from './ipc'
import { createShellFeedback } from './shell-feedback'

export function forwardEngineEvents(
  service: BridgeService,
  engine: Engine,
  windows: AppWindows,
): void {
  const feedback = createShellFeedback({
    windows: () => windows.all(),
    shouldNotify: (event) => {
      // Only runs sent from this computer, and only when the user wants notices.
      try {
        return (
          engine.settings().read().notifications &&
          isOwnRun(engine, event.environment, event.run.runId)
        )
      } catch {
        return false
      }
    },
    notify: (content) => {
      if (Notification.isSupported()) new Notification({ ...content, silent: false }).show()
    },
    setBadge: (count) => {
      if (process.platform === 'darwin') app.dock?.setBadge(count > 0 ? String(count) : '')
    },
  })
  service.subscribe((event, payload) => {
    broadcastEvent(windows.liveWebContents(), event, payload as never)
    if (event === 'activity')
      feedback.onActivity(payload as Parameters<typeof feedback.onActivity>[0])
    if (event === 'runEnded')
      feedback.onRunEnded(payload as Parameters<typeof feedback.onRunEnded>[0])
  })
}
