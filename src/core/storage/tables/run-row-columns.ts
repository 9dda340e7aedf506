/**
 * How the rows of `run_tasks` and `run_outputs` (run-rows.ts) are read: their columns, checked,
 * and made into the service's tasks and outputs again.
 */
import * as z from 'zod'
import type { Artifact, RunTask } from '../../../shared/contract'
import { columns } from '../read-row'

export const taskRow = z.object({
  task_id: z.string(),
  status: z.string(),
  source_row_index: z.number().int(),
  artifact_count: z.number().int(),
  error_message: z.string(),
})

export const outputRow = z.object({
  artifact_id: z.string(),
  task_id: z.string(),
  step_id: z.string(),
  port_name: z.string(),
  source_row_index: z.number().int(),
  mime_type: z.string(),
  access_url: z.string(),
  inline_text: z.string(),
  created_at_unix: z.number().int(),
})

export const outputPageRow = outputRow.extend({ seq: z.number().int() })

export const countRow = z.object({ n: z.number().int() })

export const addressRow = z.object({ artifact_id: z.string(), access_url: z.string() })

export const TASK_COLUMNS = 'task_id, status, source_row_index, artifact_count, error_message'

export const outputIdRow = columns({
  artifact_id: 'text',
  source_row_index: 'number',
  seq: 'number',
})
export type OutputId = Pick<Artifact, 'artifactId' | 'sourceRowIndex'>
export const OUTPUT_COLUMNS =
  'artifact_id, task_id, step_id, port_name, source_row_index, mime_type, access_url, inline_text, created_at_unix'

export function taskOf(row: z.output<typeof taskRow>): RunTask {
  return {
    taskId: row.task_id,
    status: row.status,
    sourceRowIndex: row.source_row_index,
    artifactCount: row.artifact_count,
    errorMessage: row.error_message,
  }
}

export function outputOf(row: z.output<typeof outputRow>): Artifact {
  return {
    artifactId: row.artifact_id,
    taskId: row.task_id,
    stepId: row.step_id,
    portName: row.port_name,
    sourceRowIndex: row.source_row_index,
    mimeType: row.mime_type,
    accessUrl: row.access_url,
    inlineText: row.inline_text,
    createdAtUnix: row.created_at_unix,
  }
}

/** A run's rows read a page at a time, each time they are gone through, as one sequence. */
export function flattened<T>(pages: () => Iterable<T[]>): Iterable<T> {
  return {
    *[Symbol.iterator]() {
      for (const page of pages()) yield* page
    },
  }
}
