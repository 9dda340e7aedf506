// A batch row whose kept output is a file (the sandbox's outputs are files, not inline text) is
// previewed by the file's name, and by its first line once it is saved here as short text;
// nothing is downloaded to preview it.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { outcomesOf } from '../../src/core/flows/batch/run-outcomes'
import { shownPreview } from '../../src/core/flows/batch/file-preview'
import type { Artifact, RunDetail } from '../../src/shared/contract'

const artifact = (over: Partial<Artifact>): Artifact => ({
  artifactId: 'art-1',
  taskId: 'task-1',
  stepId: 'step',
  portName: 'summary',
  sourceRowIndex: 0,
  mimeType: 'text/plain',
  accessUrl: '',
  inlineText: '',
  createdAtUnix: 1,
  ...over,
})

function detailWith(artifacts: Artifact[]): RunDetail {
  return {
    run: { runId: 'run-1', status: 'succeeded' },
    tasks: [0, 1, 2].map((i) => ({
      taskId: `task-${i}`,
      status: 'succeeded',
      sourceRowIndex: i,
      artifactCount: 1,
      errorMessage: '',
    })),
    artifacts,
  } as unknown as RunDetail
}

describe('a batch row’s preview of a file output', () => {
  const folder = mkdtempSync(join(tmpdir(), 'sr-batch-preview-'))
  const saved = new Map([
    ['art-b', join(folder, 'notes.txt')],
    ['art-c', join(folder, 'report.pdf')],
  ])
  writeFileSync(saved.get('art-b')!, '\n  First line of the notes  \nsecond line\n')
  writeFileSync(saved.get('art-c')!, '%PDF-1.7 binary')

  const outcomes = outcomesOf(
    detailWith([
      // A row with a text output and a file output shows the text, whichever comes first.
      artifact({
        artifactId: 'art-d',
        sourceRowIndex: 3,
        accessUrl: 'http://127.0.0.1:1/svc/v1/artifacts/art-d/data.csv',
      }),
      artifact({ artifactId: 'art-e', sourceRowIndex: 3, inlineText: 'Text wins' }),
      artifact({ artifactId: 'art-a', sourceRowIndex: 0, inlineText: 'Inline text' }),
      artifact({
        artifactId: 'art-b',
        sourceRowIndex: 1,
        accessUrl: 'http://127.0.0.1:1/svc/v1/artifacts/art-b/notes.txt?sig=1',
      }),
      artifact({
        artifactId: 'art-c',
        sourceRowIndex: 2,
        accessUrl: 'http://127.0.0.1:1/svc/v1/artifacts/art-c/report.pdf',
      }),
    ]),
    4,
  )
  const shown = async (i: number, withSaved = true) =>
    shownPreview((await outcomes).previews[i]!, (id) => (withSaved ? saved.get(id) : undefined))

  it('says text given inline as it was', async () => {
    expect(await shown(0)).toBe('Inline text')
    expect(await shown(3)).toBe('Text wins')
  })

  it('names a file not saved here, and reads nothing', async () => {
    expect(await shown(1, false)).toBe('notes.txt')
    expect(await shown(2, false)).toBe('report.pdf')
    // An address that names no file: the output's own name.
    const unnamed = await outcomesOf(
      detailWith([artifact({ accessUrl: 'http://127.0.0.1:1/svc/v1/artifacts/art-a/content' })]),
      1,
    )
    expect(await shownPreview(unnamed.previews[0]!, () => undefined)).toBe('summary (file)')
  })

  it('adds the first line of a short text file saved here, never of other files', async () => {
    expect(await shown(1)).toBe('notes.txt — First line of the notes')
    expect(await shown(2)).toBe('report.pdf')
  })

  it('says a JSON output saved here by its fields, not its first line', async () => {
    const path = join(folder, 'row-4.json')
    writeFileSync(path, '{\n  "message": "hello",\n  "sequence": 4,\n  "tags": ["a"]\n}\n')
    const json = await outcomesOf(
      detailWith([artifact({ accessUrl: 'http://127.0.0.1:1/svc/v1/artifacts/art-a/row-4.json' })]),
      1,
    )
    expect(await shownPreview(json.previews[0]!, () => path)).toBe(
      'row-4.json — message: hello, sequence: 4, tags: a list',
    )
  })
})
