/**
 * What a submission is before the journal gives it an id: the target and rows a caller journals,
 * its fingerprint ("the same submission"), and the entry written (submissions.ts).
 */
import { timesT, type AmountT } from '../../../shared/format/amounts'
import { sha256Hash, randomId } from '../../files/hashing'
import { basename, resolve } from 'node:path'
import type { InputRow } from '../../../shared/contract'
import type { RunTarget } from '../../../shared/run-target'
import type { Connection } from '../../environments/connection'
import type { NewSubmission, Submission } from '../../storage/tables/submissions'

export interface SubmissionInput {
  target: RunTarget
  rows: InputRow[]
  /**
   * The spreadsheet row of each row, when they came from a workbook; without it the rows are
   * named by their position in the submission ("submitted row 5").
   */
  rowNumbers?: number[] | undefined
  /** The workbook the rows came from; a copy is kept with the history entry. */
  inputPath?: string | undefined
  /** An earlier part of the same plan: its workbook's hash and copy serve this one too. */
  inputOf?: Pick<Submission, 'inputSha256' | 'inputCopyPath'> | undefined
  /** The name to show for it (by default the file name of inputPath). */
  inputFilename?: string | undefined
  /** The run whose failed rows this submission retries. */
  retryOfRunId?: string | undefined
  /** The run whose set-aside rows these are, fixed: this submission is its follow-up. */
  followUpOfRunId?: string | undefined
  /** The first run of the batch these rows complete (a pilot's, for the rest of its rows). */
  batchOfRunId?: string | undefined
  /** Rows in the whole workbook (more than sent for a pilot). */
  workbookRows?: number | undefined
  /** How it was sent (a BatchSendKind: 'redo'...), kept even when it joins no batch. */
  sendKind?: string | undefined
  /** The estimate shown to the user (null: not known); by default rows x the target's fee. */
  estimatedCostT?: AmountT | null | undefined
  /**
   * What makes it "the same submission" (see fingerprintOf); by default worked out from the
   * rows as sent. A plan passes the one it computed from file contents before any upload.
   */
  fingerprint?: string | undefined
}

/**
 * Identifies "the same submission": environment, target (what it runs, not what it was thought
 * to cost) and input content.
 */
export function fingerprintOf(historyKey: string, target: RunTarget, rows: InputRow[]): string {
  const identity =
    target.kind === 'template'
      ? ['template', target.templateId, target.callbackUrl ?? '']
      : ['listing', target.listingId, target.listingVersionId]
  const hash = sha256Hash()
  hash.update(JSON.stringify([historyKey, identity, rows]))
  return hash.digest('hex')
}

/** The journal entry for a submission, before the journal gives it an id. */
export function newSubmission(
  connection: Connection,
  input: SubmissionInput,
  inputSha256: string,
): NewSubmission {
  const target = input.target
  const fee = target.kind === 'listing' ? (target.taskFixedFeeT ?? null) : null
  return {
    clientRequestId: randomId(),
    environment: connection.name,
    historyKey: connection.historyKey,
    targetKind: target.kind,
    targetId: target.kind === 'template' ? target.templateId : target.listingId,
    listingVersionId: target.kind === 'listing' ? target.listingVersionId : '',
    callbackUrl: target.kind === 'template' ? (target.callbackUrl ?? '') : '',
    fingerprint: input.fingerprint ?? fingerprintOf(connection.historyKey, target, input.rows),
    inputFilename: input.inputFilename || (input.inputPath ? basename(input.inputPath) : ''),
    rows: input.rows,
    // No numbers: the rows did not come from a workbook (named "submitted row N").
    rowNumbers: input.rowNumbers ?? [],
    taskFixedFeeT: fee,
    estimatedCostT:
      input.estimatedCostT !== undefined
        ? input.estimatedCostT
        : fee === null
          ? null
          : timesT(fee, input.rows.length),
    retryOfRunId: input.retryOfRunId ?? '',
    followUpOfRunId: input.followUpOfRunId ?? '',
    inputPath: input.inputPath ? resolve(input.inputPath) : '',
    inputSha256,
    batchOfRunId: input.batchOfRunId ?? '',
    workbookRows: input.workbookRows ?? 0,
    sendKind: input.sendKind ?? '',
    createdAtMs: Date.now(),
  }
}
