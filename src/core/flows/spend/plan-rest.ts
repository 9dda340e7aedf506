/**
 * The rest of a pilot, as a plan to confirm: the rows of the pilot's workbook that the pilot did
 * not send, to the same target. The workbook is read again from where it was when the pilot was
 * sent, and only when its content is the same (its SHA-256 then and now); otherwise from the copy
 * kept with the pilot, said so, or not at all. The pilot's rows are left out by their spreadsheet
 * row, so none is paid twice, and the plan names the pilot's run as the batch it completes.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Connection } from '../../environments/connection'
import { EngineError } from '../../errors'
import type { BatchSendKind, EstimateSource } from '../../../shared/bridge'
import type { RunTarget } from '../../../shared/run-target'
import { defined } from '../../../shared/defined'
import { estimateOf, learnCostPerRow } from './cost'
import { hashFile } from './uploads'
import { planSend, type SendServices } from './plan-send'
import { submissionOfRun } from './rows-again'
import { batchOfRun, unsentRows } from './batch-plans'
import type { ProgressHooks } from './submission-inputs'
import type { ReadSheet } from './set-aside'
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

/**
 * Plans rows of a batch's sheet read again from the workbook its first run was sent from, with
 * the batch's sheet and confirmed mapping, as any send (planSend: a listing gets its copy); rows
 * set aside before are left out again (written to a scratch workbook that goes with the plan).
 */
export async function planBatchRowsFromSheet(
  services: SendServices,
  connection: Connection,
  readWorkbook: ReadSheet,
  request: { runId: string; rows: number[]; kind: BatchSendKind },
  hooks: ProgressHooks = {},
): Promise<Plan> {
  const batch = batchOfRun(services, connection, request.runId)
  const first = firstSendOf(services, connection, batch.id, request.runId)
  const file = await sameWorkbook(first, hooks)
  const sent = submittedTarget(first)
  const target: PlanRequest['target'] =
    sent.kind === 'template' ? { ...sent, callbackUrl: first.callbackUrl || undefined } : sent
  const scratch = await mkdtemp(join(tmpdir(), 'skill-runner-batch-'))
  try {
    return await planSend(
      services,
      connection,
      readWorkbook,
      {
        file,
        fileName: first.inputFilename,
        scratch,
        target,
        ...defined({
          sheet: batch.sheet || undefined,
          mapping: Object.keys(batch.mapping).length > 0 ? batch.mapping : undefined,
        }),
        setAside: { path: join(scratch, 'set-aside.xlsx') },
        selection: { only: request.rows },
        inBatch: {
          sendKind: request.kind,
          runValuesFrom: first.rows[0],
          // Only the rest completes the pilot's batch as its second part; chosen rows go as such.
          ...defined({
            batchOfRunId: request.kind === 'rest' ? first.batchOfRunId || first.runId : undefined,
          }),
        },
      },
      hooks,
    )
  } catch (error) {
    await rm(scratch, { recursive: true, force: true })
    throw error
  }
}

/** Plans the rows of the pilot's sheet that its batch has not sent or set aside. */
export async function planRestOfPilot(
  services: SendServices,
  connection: Connection,
  readWorkbook: ReadSheet,
  pilotRunId: string,
  hooks: ProgressHooks = {},
): Promise<Plan> {
  pilotOf(services, connection, pilotRunId)
  const batch = batchOfRun(services, connection, pilotRunId)
  const state = await services.batches.state(connection, batch.id, { signal: hooks.signal })
  const rows = state ? unsentRows(state) : []
  if (rows.length === 0) {
    throw new EngineError(
      'refused',
      'Nothing is left to send: every row of the sheet was already sent or set aside to fix.',
      'Open the batch to see each row’s result; send the rows set aside once they are fixed.',
    )
  }
  return planBatchRowsFromSheet(
    services,
    connection,
    readWorkbook,
    { runId: pilotRunId, rows, kind: 'rest' },
    hooks,
  )
}

/** The batch's first send from a workbook (the one whose workbook is read again). */
function firstSendOf(
  services: SpendServices,
  connection: Connection,
  batchId: string,
  runId: string,
): Submission {
  for (const send of services.batches.sendsOf(batchId)) {
    if (!send.runId) continue
    const submission = services.submissions.byRun(connection.historyKey, send.runId)
    if (
      submission &&
      (submission.inputPath || submission.inputCopyPath) &&
      submission.rowNumbers.length
    )
      return submission
  }
  return pilotOf(services, connection, runId)
}

/** What is left of a pilot's workbook, and what sending it would cost, before reading it. */
export interface PilotRest {
  pilotRunId: string
  targetKind: RunTarget['kind']
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
  // Its journal entry without its rows: the run's page asks at each of its updates.
  const pilot = services.submissions.sheetOfRun(connection.historyKey, runId)
  if (!pilot || pilot.workbookRows === 0 || pilot.rowNumbers.length === 0) return null
  if (!pilot.inputPath && !pilot.inputCopyPath) return null
  const batch = services.batches.ofRun(connection.historyKey, runId)
  if (!batch) return null
  const state = await services.batches.state(connection, batch.id, { signal, offline: true })
  const rows = state ? unsentRows(state).length : 0
  if (rows <= 0) return null
  const fee = pilot.targetKind === 'listing' ? pilot.taskFixedFeeT : null
  const batchRuns = (state?.sends ?? []).map((send) => send.runId).reverse()
  const learnedFrom =
    fee === null
      ? await learnCostPerRow(
          services,
          connection,
          pilot.targetKind,
          pilot.targetId,
          signal,
          batchRuns,
        )
      : null
  return {
    pilotRunId: state?.sends.find((s) => s.runId)?.runId ?? runId,
    targetKind: pilot.targetKind,
    rows,
    taskFixedFeeT: fee,
    learnedFrom,
    ...estimateOf(rows, fee, learnedFrom),
  }
}
