/**
 * Parse + validate of an input workbook: 100,000 rows x 10 fields (every field type) from xlsx,
 * beside two baselines measured in the same run: exceljs's streaming reader alone (every cell
 * touched, nothing checked) and exceljs's `xlsx.readFile` (the whole workbook in memory). Each
 * is measured in a process of its own, so that peak RSS figures are the reader's alone.
 *
 * Targets: at most 1.3x the streaming read, peak RSS under 250 MB, and at least 2x faster with
 * at most half the memory of readFile.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ExcelJS from 'exceljs'
import { parseInputWorkbook } from '../src/core/workbooks'
import { officialTemplateSchemaSchema, type OfficialTemplateSchema } from '../src/shared/contract'
import { peakRssMb } from './support'

const ROWS = 100_000

const field = (key: string, type: string, extra: Record<string, unknown> = {}) => ({
  key,
  label: key,
  type,
  ...extra,
})
const fields = [
  field('name', 'string', { required: true }),
  field('notes', 'text'),
  field('quantity', 'integer'),
  field('price', 'number'),
  field('active', 'boolean'),
  field('due', 'date'),
  field('tier', 'enum', { enumValues: ['bronze', 'silver', 'gold'] }),
  field('site', 'url'),
  field('contact', 'email'),
  field('attachment', 'file', { acceptedInputKinds: ['url', 'asset'] }),
]
const schema: OfficialTemplateSchema = officialTemplateSchemaSchema.parse({
  templateId: 'bench',
  name: 'Bench',
  version: '1',
  fields,
  columns: fields.map((f, order) => ({ fieldKey: f.key, headerLabel: f.key, order })),
})

async function writeWorkbook(path: string) {
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true })
  const ws = writer.addWorksheet('Input')
  ws.addRow(fields.map((f) => f.key)).commit()
  for (let i = 0; i < ROWS; i += 1) {
    ws.addRow([
      `Item ${i}`,
      `Some notes about item ${i}, long enough to be a sentence.`,
      i,
      i * 1.25,
      i % 2 === 0 ? 'yes' : 'no',
      new Date(Date.UTC(2026, i % 12, (i % 28) + 1)),
      ['bronze', 'silver', 'gold'][i % 3],
      `https://example.com/items/${i}`,
      `buyer${i}@example.com`,
      `https://example.com/files/${i}.pdf`,
    ]).commit()
  }
  ws.commit()
  await writer.commit()
}

type Mode = 'stream' | 'readFile' | 'ours'

/** One measurement, run in a child process: prints `{ ms, rssMb, rows }`. */
async function measure(mode: Mode, path: string) {
  const started = performance.now()
  let rows = 0
  if (mode === 'stream') {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, {
      worksheets: 'emit',
      sharedStrings: 'cache',
      hyperlinks: 'cache',
      styles: 'cache',
      entries: 'ignore',
    })
    for await (const sheet of reader) {
      for await (const row of sheet as unknown as AsyncIterable<{ values: unknown[] }>) {
        for (const value of row.values) if (value !== undefined) rows += 0
        rows += 1
      }
    }
    rows -= 1
  } else if (mode === 'readFile') {
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.readFile(path)
    workbook.getWorksheet('Input')!.eachRow((row) => {
      row.eachCell(() => undefined)
      rows += 1
    })
    rows -= 1
  } else {
    const result = await parseInputWorkbook({ path }, schema, { keepRows: false })
    if (!result.valid) throw new Error(`not valid: ${JSON.stringify(result).slice(0, 400)}`)
    rows = result.rowCount
  }
  const ms = performance.now() - started
  console.log(JSON.stringify({ ms, rssMb: peakRssMb(), rows }))
}

function runChild(mode: Mode, path: string) {
  const self = fileURLToPath(import.meta.url)
  const r = spawnSync(process.execPath, ['--import', 'tsx', self, mode, path], {
    encoding: 'utf8',
  })
  if (r.status !== 0) throw new Error(`${mode} failed: ${r.stderr}`)
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as {
    ms: number
    rssMb: number
    rows: number
  }
}

const [mode, childPath] = process.argv.slice(2)
if (mode) {
  await measure(mode as Mode, childPath!)
} else {
  const dir = mkdtempSync(join(tmpdir(), 'sr-bench-workbooks-'))
  const path = join(dir, 'input.xlsx')
  try {
    await writeWorkbook(path)
    const stream = runChild('stream', path)
    const readFile = runChild('readFile', path)
    const ours = runChild('ours', path)
    const line = (name: string, m: { ms: number; rssMb: number; rows: number }) =>
      console.log(
        `${name.padEnd(34)} ${(m.ms / 1000).toFixed(2).padStart(6)} s  peak RSS ${m.rssMb.toFixed(0).padStart(4)} MB  (${m.rows} rows)`,
      )
    console.log(
      `${ROWS.toLocaleString('en-US')} rows x ${fields.length} fields (every field type), xlsx`,
    )
    line('exceljs streaming read alone', stream)
    line('exceljs xlsx.readFile', readFile)
    line('Skill Runner parse + validate', ours)
    const check = (ok: boolean, text: string) => console.log(`${ok ? 'MET ' : 'MISS'} ${text}`)
    const vsStream = ours.ms / stream.ms
    check(vsStream <= 1.3, `time vs streaming read: ${vsStream.toFixed(2)}x (target at most 1.3x)`)
    check(ours.rssMb < 250, `peak RSS ${ours.rssMb.toFixed(0)} MB (target under 250 MB)`)
    const speedup = readFile.ms / ours.ms
    check(speedup >= 2, `faster than readFile: ${speedup.toFixed(2)}x (target at least 2x)`)
    const memory = ours.rssMb / readFile.rssMb
    check(memory <= 0.5, `memory vs readFile: ${memory.toFixed(2)}x (target at most 0.5x)`)
  } finally {
    if (!process.env.KEEP_BENCH) rmSync(dir, { recursive: true, force: true })
    else console.log(dir)
  }
}
