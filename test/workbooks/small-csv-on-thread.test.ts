// The command line reads a small csv on its own thread (starting a worker costs more than
// reading it) with the same reader, limits and messages; anything larger, or anything that is
// not a csv under its name, still goes to the worker. Which thread read a file is told by a real
// worker file that answers with a marker instead of reading.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseInputWorkbook, readInputWorkbook, SMALL_CSV_BYTES } from '../../src/core/workbooks'
import { answeringWorker, echoSchema as echo } from './support/workers'

const dir = mkdtempSync(join(tmpdir(), 'sr-small-csv-'))

/** A worker that reads nothing: its answer says the file went to a worker. */
const markerWorker = answeringWorker(
  dir,
  'marker-worker.mjs',
  `parentPort.postMessage({ type: 'started' })
parentPort.postMessage({ type: 'done', result: { valid: false, fileErrors: ['read in a worker'], rowErrors: [] } })
`,
)

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}

const CSV = 'Message,Sequence number\nhello,1\nagain,two\n'

describe('a small csv read on the calling thread', () => {
  it('gives the reader’s own answer, without a worker', async () => {
    const path = file('three.csv', CSV)
    const progress: number[] = []
    const here = await parseInputWorkbook({ path }, echo, {
      workerFile: markerWorker,
      onThisThreadUpToBytes: SMALL_CSV_BYTES,
      onProgress: (n) => progress.push(n),
    })
    expect(here).toEqual(await readInputWorkbook({ path }, echo))
    expect(here.fileErrors).toEqual([])
    expect(here.rowErrors.map((e) => e.fieldKey)).toEqual(['sequence'])
  })

  it('keeps the reader’s messages for a bad file read here', async () => {
    const path = file('empty.csv', '')
    const here = await parseInputWorkbook({ path }, echo, {
      workerFile: markerWorker,
      onThisThreadUpToBytes: SMALL_CSV_BYTES,
    })
    expect(here.fileErrors).toEqual(['The file is empty. Fill in the workbook and save it again.'])
  })

  it('sends a larger csv to the worker', async () => {
    const path = file('large.csv', CSV + 'more,3\n'.repeat(40))
    const result = await parseInputWorkbook({ path }, echo, {
      workerFile: markerWorker,
      onThisThreadUpToBytes: 64,
    })
    expect(result.fileErrors).toEqual(['read in a worker'])
  })

  it('sends a zip or an old Excel file named .csv to the worker', async () => {
    for (const [name, head] of [
      ['zip.csv', [0x50, 0x4b, 0x03, 0x04]],
      ['ole.csv', [0xd0, 0xcf, 0x11, 0xe0]],
    ] as const) {
      const path = file(name, Buffer.from([...head, 0, 0, 0, 0]))
      const result = await parseInputWorkbook({ path }, echo, {
        workerFile: markerWorker,
        onThisThreadUpToBytes: SMALL_CSV_BYTES,
      })
      expect(result.fileErrors, name).toEqual(['read in a worker'])
    }
  })

  it('sends an xlsx, and every file when not asked, to the worker', async () => {
    const xlsx = file('small.xlsx', Buffer.from([0x50, 0x4b, 0x03, 0x04]))
    const csv = file('asked-not.csv', CSV)
    for (const [path, options] of [
      [xlsx, { onThisThreadUpToBytes: SMALL_CSV_BYTES }],
      [csv, {}],
    ] as const) {
      const result = await parseInputWorkbook({ path }, echo, {
        workerFile: markerWorker,
        ...options,
      })
      expect(result.fileErrors, path).toEqual(['read in a worker'])
    }
  })
})
