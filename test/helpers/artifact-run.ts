import type { RunDetail } from '../../src/shared/contract'

/** A finished run of one row with one artifact at `accessUrl`, for download tests. */
export function runWithArtifact(accessUrl: string): RunDetail {
  const detail = {
    run: { runId: 'run-1', status: 'succeeded', totalTasks: 1, completedTasks: 1 },
    tasks: [{ taskId: 't-1', status: 'succeeded', sourceRowIndex: 0, artifactCount: 1 }],
    artifacts: [
      { artifactId: 'a-1', taskId: 't-1', portName: 'report', sourceRowIndex: 0, accessUrl },
    ],
  }
  return detail as unknown as RunDetail
}
