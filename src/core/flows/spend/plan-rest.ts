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
import type { EstimateSource } from '../../../shared/bridge'
import { estimateOf, learnCostPerRow } from './cost'
import { hashFile } from './uploads'
import { planSubmission } from './plan-submission'
import { submissionOfRun } from './rows-again'
import type { ProgressHooks, ReadWorkbook } from './submission-inputs'
import type { LearnedCost, Plan, PlanRequest, SpendServices } from './plan'
import { submittedTarget, type Submission } from './submissions'

/** The pilot's accepted submission, refusing a run this device did not send from a workbook. */
function pilotOf(services: SpendServices, connection: Connection, runId: string): Submission {
  const notSentHere = () =>
    new EngineError(
      'not-found',
      `Run ${runId} was not sent from this computer, so which rows it sent is not known here.`,
      'Send the rest of the workbook by its row numbers instead.',
    )
  const pilot = submissionOfRun(services, connection, runId, notSentHere)
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
  const sent = submittedTarget(pilot)
  const target: PlanRequest['target'] =
    sent.kind === 'template' ? { ...sent, callbackUrl: pilot.callbackUrl || undefined } : sent
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

/** What is left of a pilot's workbook, and what sending it would cost, before reading it. */
export interface PilotRest {
  pilotRunId: string
  targetKind: 'template' | 'listing'
  rows: number
  estimateT: number | null
  estimateSource: EstimateSource
  taskFixedFeeT: number | null
  learnedFrom: LearnedCost | null
}

/**
 * The rows of `runId`'s workbook that its batch has not sent yet, from the journal alone (no
 * workbook is read, nothing is sent); null when the run was not sent here from a workbook with
 * rows left over.
 */
export async function pilotRest(
  services: SpendServices,
  connection: Connection,
  runId: string,
  signal?: AbortSignal,
): Promise<PilotRest | null> {
  const pilot = services.submissions.byRun(connection.historyKey, runId)
  if (!pilot || pilot.workbookRows === 0 || pilot.rowNumbers.length === 0) return null
  if (!pilot.inputPath && !pilot.inputCopyPath) return null
  const first =
    (pilot.batchOfRunId && services.submissions.byRun(connection.historyKey, pilot.batchOfRunId)) ||
    pilot
  const rows = first.workbookRows - sentInBatch(services, connection, pilot).length
  if (rows <= 0) return null
  const fee = pilot.targetKind === 'listing' ? pilot.taskFixedFeeT : null
  const learnedFrom =
    fee === null
      ? await learnCostPerRow(services, connection, pilot.targetKind, pilot.targetId, signal)
      : null
  return {
    pilotRunId: first.runId,
    targetKind: pilot.targetKind,
    rows,
    taskFixedFeeT: fee,
    learnedFrom,
    ...estimateOf(rows, fee, learnedFrom),
  }
}
