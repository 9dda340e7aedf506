/**
 * Outputs kept for good: when the setting is on (the default), a run's outputs are saved to the
 * outputs folder as soon as the run ends, so that they outlive the service's addresses for them.
 * The app calls it when it sees a run end; the command line after `--watch`.
 */
import type { RunDetail } from '../../../shared/contract'
import type { Connection } from '../../environments/connection'
import type { Settings } from '../../storage/settings'
import type { DownloadOptions, RunDownload } from '../downloads/downloads'
import { readStoredRun, WINDOWED_FROM } from '../watch/stored-detail'
import { downloadRunOutputs, type ResultsServices } from './results'

export type SaveOnEndServices = Omit<ResultsServices, 'schemas'>

/**
 * Saves the ended run's outputs when the settings ask for it; null when they do not, or when the
 * run made no outputs (no empty folder is left for it).
 */
export async function saveOutputsOnEnd(
  services: SaveOnEndServices,
  settings: Pick<Settings, 'read'>,
  connection: Connection,
  runOrDetail: string | RunDetail,
  options: DownloadOptions = {},
): Promise<RunDownload | null> {
  const { autoSaveOutputs, outputsFolder, downloadConcurrency } = settings.read()
  if (!autoSaveOutputs) return null
  const saveOptions = { concurrency: downloadConcurrency, ...options }
  if (typeof runOrDetail !== 'string') {
    if (runOrDetail.artifacts.length === 0) return null
    return downloadRunOutputs(services, connection, runOrDetail, outputsFolder, saveOptions)
  }
  // Read into the history as it arrives: a small run is kept whole and saved from there; a big
  // one (no answer limit stops it) is saved from the history a page at a time.
  const where = { historyKey: connection.historyKey, runId: runOrDetail, keepUpTo: WINDOWED_FROM }
  const rows = services.downloads.rows
  const read = await readStoredRun(connection.client, rows, where, { signal: options.signal })
  if (read.counts.outputs === 0) return null
  // A big run is saved from the reading just stored, not read a second time.
  const justRead = read.detail ? undefined : read
  return downloadRunOutputs(services, connection, read.detail ?? runOrDetail, outputsFolder, {
    ...saveOptions,
    justRead,
  })
}
