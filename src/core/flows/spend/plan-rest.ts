/**
 * The rest of a pilot, as a plan to confirm: the rows of the pilot's workbook that the pilot did
 * not send, to the same target. The workbook is read again from where it was when the pilot was
 * sent, and only when its content is the same (its SHA-256 then and now); otherwise from the copy
 * kept with the pilot, said so, or not at all. The pilot's rows are left out by their spreadsheet
 * row, so none is paid twice, and the plan names the pilot's run as the batch it completes.
 */
import { existsSync } from 'node:fs'
import type { Connection } from '../../environments/connection'
import { EngineError } from '../../errors'
import { hashFile } from './uploads'
import { planSubmission } from './plan-submission'
import type { ProgressHooks, ReadWorkbook } from './submission-inputs'
import type { Plan, PlanRequest, SpendServices } from './plan'
import type { Submission } from './submissions'

/** The pilot's accepted submission, refusing a run this device did not send from a workbook. */
function pilotOf(services: SpendServices, connection: Connection, runId: string): Submission {
  const pilot = services.submissions.byRun(connection.historyKey, runId)
  if (!pilot) {
    throw new EngineError(
      'not-found',
      `Run ${runId} was not sent from this computer, so which rows it sent is not known here.`,
      'Send the rest of the workbook by its row numbers instead.',
    )
  }
  if (pilot.rowNumbers.length === 0 || (!pilot.inputPath && !pilot.inputCopyPath)) {
    throw new EngineError(
      'refused',
      `Run ${runId} was not sent from a workbook this computer still knows, so there is no rest to send.`,
      'Send the workbook again with the rows you need.',
    )
  }
  return pilot
}

/** The same workbook the pilot was sent from: its own path if unchanged, else the copy kept. */
async function sameWorkbook(pilot: Submission, hooks: ProgressHooks): Promise<string> {
  const unchanged = async (path: string) =>
    path !== '' &&
    existsSync(path) &&
    (pilot.inputSha256 === '' || (await hashFile(path, hooks.signal)) === pilot.inputSha256)
  if (await unchanged(pilot.inputPath)) {
    if (pilot.inputSha256 === '') {
      hooks.onStep?.(
        `${pilot.inputFilename} is read from where it was; whether it changed since run ${pilot.runId} cannot be checked (it was sent by an older Skill Runner)`,
      )
    }
    return pilot.inputPath
  }
  if (pilot.inputSha256 !== '' && (await unchanged(pilot.inputCopyPath))) {
    hooks.onStep?.(
      `${pilot.inputFilename} changed or moved since run ${pilot.runId} was sent; the rest is read from the copy kept when it was sent`,
    )
    return pilot.inputCopyPath
  }
  throw new EngineError(
    'conflict',
    `The workbook ${pilot.inputFilename} is not the one run ${pilot.runId} was sent from: it changed or moved, and no unchanged copy is kept.`,
    'Send the rows you still need from the workbook as it is now, by their row numbers.',
  )
}

/** Plans the rows of the pilot's workbook that the pilot (run `pilotRunId`) did not send. */
export async function planRestOfPilot(
  services: SpendServices,
  connection: Connection,
  readWorkbook: ReadWorkbook,
  pilotRunId: string,
  hooks: ProgressHooks = {},
): Promise<Plan> {
  const pilot = pilotOf(services, connection, pilotRunId)
  const file = await sameWorkbook(pilot, hooks)
  const target: PlanRequest['target'] =
    pilot.targetKind === 'template'
      ? {
          kind: 'template',
          templateId: pilot.targetId,
          callbackUrl: pilot.callbackUrl || undefined,
        }
      : { kind: 'listing', listingId: pilot.targetId, listingVersionId: pilot.listingVersionId }
  return planSubmission(
    services,
    connection,
    readWorkbook,
    {
      file,
      fileName: pilot.inputFilename,
      target,
      // Every run of the batch so far: the pilot, and any rest already sent.
      selection: { except: sentInBatch(services, connection, pilot) },
      runValuesFrom: pilot.rows[0],
      batchOfRunId: pilot.batchOfRunId || pilot.runId,
    },
    hooks,
  )
}

/** The spreadsheet rows already sent by the runs of the pilot's batch. */
function sentInBatch(services: SpendServices, connection: Connection, pilot: Submission): number[] {
  const first = pilot.batchOfRunId || pilot.runId
  const rows = new Set<number>(pilot.rowNumbers)
  for (const runId of services.submissions.batchRuns(connection.historyKey, first)) {
    for (const n of services.submissions.byRun(connection.historyKey, runId)?.rowNumbers ?? [])
      rows.add(n)
  }
  return [...rows]
}
