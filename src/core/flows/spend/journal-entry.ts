/**
 * What a submission is before the journal gives it an id: the target and rows a caller journals,
 * its fingerprint ("the same submission"), and the entry written (submissions.ts).
 */
import { timesT, type AmountT } from '../../../shared/format/amounts'
import { sha256Hash, randomId } from '../../files/hashing'
import { basename, resolve } from 'node:path'
import type { InputRow } from '../../../shared/contract'
import type { RunTarget } from '../../../shared/run-target'
import { SUBMITTED_ROWS, spreadsheetRows, type RowNumbering } from '../../../shared/format'
import type { Connection } from '../../environments/connection'
import type { NewSubmission, Submission } from '../../storage/tables/submissions'
import type { RowSource } from './journal-rows'

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

function identityOf(target: RunTarget): string[] {
  return target.kind === 'template'
    ? ['template', target.templateId, target.callbackUrl ?? '']
    : ['listing', target.listingId, target.listingVersionId]
}

/**
 * Identifies "the same submission": environment, target (what it runs, not what it was thought
 * to cost) and input content.
 */
export function fingerprintOf(historyKey: string, target: RunTarget, rows: InputRow[]): string {
  const hash = sha256Hash()
  hash.update(JSON.stringify([historyKey, identityOf(target), rows]))
  return hash.digest('hex')
}

/**
 * fingerprintOf for rows that come a run at a time: the same text hashed as it comes, so the
 * same rows give the same fingerprint however they are held.
 */
export async function fingerprintOfChunks(
  historyKey: string,
  target: RunTarget,
  chunks: AsyncIterable<InputRow[]>,
): Promise<string> {
  const hash = sha256Hash()
  hash.update(JSON.stringify([historyKey, identityOf(target)]).slice(0, -1))
  hash.update(',[')
  let first = true
  for await (const rows of chunks) {
    for (const row of rows) {
      hash.update(first ? JSON.stringify(row) : `,${JSON.stringify(row)}`)
      first = false
    }
  }
  hash.update(']]')
  return hash.digest('hex')
}

/**
 * Rows journaled as they come (a plan's, read a part at a time): their fingerprint is the
 * plan's, never worked out from rows that are not all in memory.
 */
export type StreamedInput = Omit<SubmissionInput, 'rows' | 'fingerprint'> & {
  rows: RowSource
  fingerprint: string
}

/**
 * The journal entry for a submission, before the journal gives it an id (its rows' hash is
 * filled in once they are staged: journal-rows.ts).
 */
export function newSubmission(
  connection: Connection,
  input: SubmissionInput | StreamedInput,
  inputSha256: string,
): NewSubmission {
  const rows = input.rows
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
    fingerprint:
      input.fingerprint ??
      (Array.isArray(rows) ? fingerprintOf(connection.historyKey, target, rows) : ''),
    inputFilename: input.inputFilename || (input.inputPath ? basename(input.inputPath) : ''),
    rowCount: rows.length,
    rowsSha256: '',
    // No numbers: the rows did not come from a workbook (named "submitted row N").
    rowNumbers: input.rowNumbers ?? [],
    taskFixedFeeT: fee,
    estimatedCostT:
      input.estimatedCostT !== undefined
        ? input.estimatedCostT
        : fee === null
          ? null
          : timesT(fee, rows.length),
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

/**
 * How the rows of a run sent from here are named: by spreadsheet row when they came from a
 * workbook, else by position ("submitted row 5"); null for a run this device did not send.
 */
export function rowNumberingOf(
  submission: Pick<Submission, 'rowNumbers'> | null,
): RowNumbering | null {
  if (!submission) return null
  return submission.rowNumbers.length > 0 ? spreadsheetRows(submission.rowNumbers) : SUBMITTED_ROWS
}

/** The template or listing a submission went to, named as the New run screen names targets. */
export function submittedTarget(
  submission: Pick<Submission, 'targetKind' | 'targetId' | 'listingVersionId'>,
): RunTarget {
  return submission.targetKind === 'listing'
    ? {
        kind: 'listing',
        listingId: submission.targetId,
        listingVersionId: submission.listingVersionId,
      }
    : { kind: 'template', templateId: submission.targetId }
}
