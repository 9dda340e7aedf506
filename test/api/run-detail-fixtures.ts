// Run details the two readings of a run's detail are held to: those the plain readers take on
// their own, and those the contract's schema refuses (each with one field at fault).
export const run = {
  runId: 'run_1',
  status: 'running',
  totalTasks: 2,
  completedTasks: 1,
  extra: 'x',
}
export const task = (i: number) => ({
  taskId: `task_${i}`,
  status: 'succeeded',
  sourceRowIndex: i,
  artifactCount: 1,
  errorMessage: '',
})
export const artifact = (i: number) => ({
  artifactId: `art_${i}`,
  taskId: `task_${i}`,
  stepId: 'echo',
  portName: 'reply',
  sourceRowIndex: i,
  mimeType: 'text/plain',
  accessUrl: `http://127.0.0.1/a/${i}`,
  inlineText: `row ${i}`,
  createdAtUnix: 1_700_000_000,
})
export const market = { listingId: 'lst_1', runId: 'run_1', taskFixedFeeT: 3 }

/** Answers the reader takes on its own: every one as zod reads it. */
export const plain: Record<string, unknown> = {
  'every field': { run, market, tasks: [task(0), task(1)], artifacts: [artifact(0)] },
  'no market': { run, tasks: [task(0)], artifacts: [] },
  'an empty market (a template run)': { run, market: {}, tasks: [], artifacts: [] },
  'a null market': { run, market: null, tasks: [task(0)], artifacts: [artifact(0)] },
  'lists null or absent': { run, tasks: null },
  'descriptive fields null or absent': {
    run,
    tasks: [{ taskId: 't', status: 'queued', sourceRowIndex: 0, errorMessage: null }],
    artifacts: [{ artifactId: 'a', sourceRowIndex: 0, inlineText: null, createdAtUnix: null }],
  },
  'fields this app does not know': {
    run,
    tasks: [{ ...task(0), startedAtUnix: 5 }],
    artifacts: [{ ...artifact(0), sizeBytes: 10, labels: ['a'] }],
    next: 'x',
  },
  'a negative zero and a row 0': { run, tasks: [{ ...task(0), sourceRowIndex: -0 }] },
}

/** Answers the schema refuses: the reader leaves them to zod, which names the field. */
export const refused: Record<string, unknown> = {
  'a task without an id': { run, tasks: [task(0), { ...task(1), taskId: undefined }] },
  'an empty task id': { run, tasks: [{ ...task(0), taskId: '' }] },
  'a row index that is not a whole number': { run, tasks: [{ ...task(0), sourceRowIndex: 1.5 }] },
  'a row index past safe integers': {
    run,
    artifacts: [{ ...artifact(0), sourceRowIndex: 2 ** 53 }],
  },
  'a count as text': { run, tasks: [{ ...task(0), artifactCount: '1' }] },
  'an output without its row': { run, artifacts: [{ ...artifact(0), sourceRowIndex: null }] },
  'a task that is a list': { run, tasks: [[1]] },
  'tasks that are not a list': { run, tasks: { 0: task(0) } },
  'no run': { tasks: [] },
  'a run without an id': { run: { status: 'running' }, tasks: [] },
  'a market that is text': { run, market: 'lst_1' },
  'an answer that is a list': [run],
}
