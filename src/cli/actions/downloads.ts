/** `runs download` and `runs results`. */
import { resolve } from 'node:path'
import type { DownloadOptions, RunDownload } from '../../core/flows/downloads/downloads'
import { downloadRunOutputs, writeResultsWorkbook } from '../../core/flows/results/results'
import { saveOutputsOnEnd, type SaveOnEndServices } from '../../core/flows/results/save-on-end'
import type { Connection, Engine } from '../../core/engine'
import { isTerminalStatus, type RunDetail } from '../../shared/contract'
import { outputOption, type CommandContext, type ParsedArgs, type Declared } from '../command'
import { EXIT } from '../errors'

/**
 * The bar counts only the files fetched now: outputs already on disk from an earlier save are
 * reused, and a save that fetches nothing draws no bar at all (it said "downloading 3/3 files"
 * while it downloaded none).
 */
function progress(ctx: CommandContext): DownloadOptions {
  const bar = ctx.out.bar('downloading', 'files')
  return {
    signal: ctx.signal,
    onProgress: ({ overall }) => {
      const { doneFiles, totalFiles, receivedBytes, reusedFiles } = overall
      if (doneFiles === reusedFiles && receivedBytes === 0) return
      const mb = `${(receivedBytes / 1024 / 1024).toFixed(1)} MB`
      bar.update(
        doneFiles - reusedFiles,
        totalFiles - reusedFiles,
        reusedFiles ? `${mb}, ${reusedFiles} already saved` : mb,
      )
    },
  }
}

/** What a save fetched and what it reused: "downloaded 1 of 3 files, 2 already saved, reused". */
function fetchedAndReused(download: RunDownload): string {
  const { reused } = download
  const total = download.saved + download.failed.length
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
  if (reused === total) return `${plural(reused, 'output')} already saved, reused`
  const downloaded = `downloaded ${download.saved - reused} of ${plural(total, 'file')}`
  return reused ? `${downloaded}, ${reused} already saved, reused` : downloaded
}

/** What saving a watched run's outputs uses of the engine. */
export type SaveWatchedServices = SaveOnEndServices & Pick<Engine, 'settings'>

/**
 * After `--watch`: the run's outputs saved to the outputs folder when the "keep outputs" setting
 * is on (the default), said on stderr. A save that fails does not change the run's answer.
 */
export async function saveWatchedOutputs(
  ctx: CommandContext,
  engine: SaveWatchedServices,
  connection: Connection,
  detail: RunDetail,
): Promise<void> {
  try {
    const result = await saveOutputsOnEnd(
      engine,
      engine.settings(),
      connection,
      detail,
      progress(ctx),
    )
    ctx.out.endProgress()
    if (!result) return
    ctx.out.note(`outputs saved in ${result.folder} (${fetchedAndReused(result)})`)
    for (const f of result.failed)
      ctx.out.note(`not saved: ${f.artifactId}: ${f.error} ${f.nextStep}`)
  } catch (error) {
    ctx.out.endProgress()
    ctx.out.note(
      `the outputs were not saved: ${error instanceof Error ? error.message : String(error)}; save them with: skill-runner runs download ${detail.run.runId} -o DIR`,
    )
  }
}

export async function runsDownload(ctx: CommandContext, args: ParsedArgs, self: Declared) {
  const output = outputOption(args, self, 'folder')
  const { engine, connection } = await ctx.session()
  // Read into the history and saved a page at a time: a run of any size.
  const result = await downloadRunOutputs(
    engine,
    connection,
    args.positionals[0]!,
    resolve(output),
    {
      ...progress(ctx),
      // The answer names every file saved.
      listFiles: true,
      seen: (run) => {
        if (!isTerminalStatus(run.status))
          ctx.out.note(
            `the run is still ${run.status}; this downloads what is ready now (run the command again later for the rest)`,
          )
      },
    },
  )
  ctx.out.endProgress()
  const files = result.files ?? []
  const answer = {
    files: files.map((f) => ({ artifactId: f.artifactId, path: f.path, bytes: f.bytes })),
    failed: result.failed.map((f) => ({
      artifactId: f.artifactId,
      error: f.error,
      nextStep: f.nextStep,
    })),
  }
  ctx.out.result(answer, () => {
    const { saved, reused } = result
    const lines = [
      `${saved} file${saved === 1 ? '' : 's'} in ${result.folder}${reused ? ` (${reused} already there)` : ''}`,
    ]
    for (const f of result.failed) lines.push(`failed: ${f.artifactId}: ${f.error} ${f.nextStep}`)
    return lines.join('\n')
  })
  return result.failed.length ? EXIT.no : EXIT.ok
}

export async function runsResults(ctx: CommandContext, args: ParsedArgs, self: Declared) {
  const output = outputOption(args, self, 'xlsx')
  const { engine, connection } = await ctx.session()
  const result = await writeResultsWorkbook(
    engine,
    connection,
    args.positionals[0]!,
    resolve(output),
    progress(ctx),
  )
  ctx.out.endProgress()
  if (result.download.saved + result.download.failed.length > 0)
    ctx.out.note(fetchedAndReused(result.download))
  for (const f of result.download.failed)
    ctx.out.note(`not downloaded: ${f.artifactId}: ${f.error} ${f.nextStep}`)
  ctx.out.result({ path: result.path }, () => `wrote ${result.path} (outputs in ${result.folder})`)
  return EXIT.ok
}
