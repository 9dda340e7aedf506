// Hostile files through the real command line, each in a child process of its own with a limit
// on time and on address space: `validate` and `validate --annotate` must end with a clear file
// error (or a clear answer), a sane exit code and bounded memory, never a crash, a hang, raw
// internal messages or escape sequences on the terminal.
import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureAppBuilt } from '../e2e/support'
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox'
import { makeXlsx, makeZip, sheetXml, xlsxEntries } from './support/zip'

const root = join(import.meta.dirname, '..', '..')
const dir = mkdtempSync(join(tmpdir(), 'sr-hostile-'))
const home = join(dir, 'home')
/**
 * Address space allowed to each run: a hard stop for a runaway process. It is large because
 * fetch's WebAssembly parser reserves about 10 GB it never uses; the real memory check is the
 * peak RSS below.
 */
const ADDRESS_SPACE = 24 * 1024 * 1024 * 1024
const PEAK_RSS_MB = 400
const TIME_MS = 30_000

/** prlimit (util-linux) and GNU time bound and measure each run; without them, say so and skip. */
const tools = ['prlimit', '/usr/bin/time'].filter(
  (tool) => spawnSync(tool, ['--version'], { stdio: 'ignore' }).error !== undefined,
)
if (tools.length)
  console.log(`hostile-cli: skipped, ${tools.join(' and ')} not found on this machine`)
const describeWithTools = tools.length ? describe.skip : describe

let sandbox: TestSandbox
beforeAll(async () => {
  if (tools.length) return
  mkdirSync(home)
  // Built when a source is newer, never in the middle of another file's use of out/cli.
  ensureAppBuilt()
  sandbox = await startTestSandbox()
}, 120_000)
afterAll(() => sandbox?.close())

interface Outcome {
  code: number | null
  stdout: string
  stderr: string
  peakRssMb: number
  ms: number
}

/** One CLI run under prlimit and GNU time (which reports the peak RSS on its last line). */
function cli(args: string[]): Promise<Outcome> {
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const child = spawn(
      'prlimit',
      [
        `--as=${ADDRESS_SPACE}`,
        '/usr/bin/time',
        '-f',
        'PEAK_RSS_KB=%M',
        process.execPath,
        join(root, 'bin/skill-runner.js'),
        ...args,
      ],
      {
        env: {
          ...process.env,
          SKILL_RUNNER_HOME: home,
          SKILL_RUNNER_TOKEN: sandbox.token,
          NO_COLOR: '1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), TIME_MS)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      const match = /PEAK_RSS_KB=(\d+)\s*$/.exec(stderr)
      resolve({
        code,
        stdout,
        stderr: stderr.replace(/(Command (exited|terminated)[^\n]*\n)?PEAK_RSS_KB=\d+\s*$/, ''),
        peakRssMb: match ? Number(match[1]) / 1024 : Infinity,
        ms: Date.now() - started,
      })
    })
  })
}

const file = (name: string, bytes: Buffer | string) => {
  const path = join(dir, name)
  writeFileSync(path, bytes)
  return path
}

const HEADER = `<row r="1"><c r="A1" t="inlineStr"><is><t>Message</t></is></c></row>`
const spaces = (mb: number) => ' '.repeat(mb * 1024 * 1024)

/** name -> [the file, what its file error must say] */
function corpus(): [string, string, RegExp][] {
  const fffe = xlsxEntries({ sheet: HEADER })
  fffe[4] = { ...fffe[4]!, fakeCompressedSize: 0xfffffffe }
  const bombWorkbook = xlsxEntries({ sheet: HEADER })
  bombWorkbook[2] = { ...bombWorkbook[2]!, data: `<workbook>${spaces(120)}</workbook>` }
  const bombStyles = xlsxEntries({ sheet: HEADER, styles: { xfs: [0] } })
  bombStyles[5] = { ...bombStyles[5]!, data: `<styleSheet>${spaces(120)}</styleSheet>` }
  const fifoCsv = join(dir, 'pipe.csv')
  const fifoXlsx = join(dir, 'pipe.xlsx')
  for (const fifo of [fifoCsv, fifoXlsx]) if (!existsSync(fifo)) spawnSync('mkfifo', [fifo])
  return [
    [
      'huge reference',
      file(
        'huge-ref.xlsx',
        makeXlsx({ sheet: `${HEADER}<row r="2"><c r="ZZZZZZZZZZ2"><v>1</v></c></row>` }),
      ),
      /beyond column XFD/,
    ],
    [
      'huge row number',
      file(
        'huge-row.xlsx',
        makeXlsx({ sheet: `${HEADER}<row r="4294967297"><c r="A4294967297"><v>1</v></c></row>` }),
      ),
      /beyond row 1,048,576/,
    ],
    ['size 0xFFFFFFFE in the zip directory', file('fffe.xlsx', makeZip(fffe)), /damaged/],
    [
      'zip bomb in workbook.xml',
      file('bomb-workbook.xlsx', makeZip(bombWorkbook)),
      /unpacks to more than/,
    ],
    [
      'zip bomb in styles.xml',
      file('bomb-styles.xlsx', makeZip(bombStyles)),
      /unpacks to more than/,
    ],
    [
      'a <row> that never closes',
      file(
        'unclosed-row.xlsx',
        makeXlsx({
          sheet: sheetXml(`${HEADER}<row r="2"><c r="A2"><v>1</v></c>`).replace(
            '</sheetData></worksheet>',
            spaces(80),
          ),
        }),
      ),
      /never ends/,
    ],
    ['a cut-off zip', file('cut.xlsx', makeXlsx({ sheet: HEADER }).subarray(0, 400)), /damaged/],
    [
      'random bytes named .xlsx',
      file('random.xlsx', Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 251))),
      /not a spreadsheet/,
    ],
    ['a FIFO named .csv', fifoCsv, /named pipe/],
    ['a FIFO named .xlsx', fifoXlsx, /named pipe/],
    [
      'a folder named .xlsx',
      (mkdirSync(join(dir, 'folder.xlsx'), { recursive: true }), join(dir, 'folder.xlsx')),
      /folder/,
    ],
    [
      'binary data named .csv',
      file('binary.csv', Buffer.from([0x4d, 0x65, 0, 1, 2, 3, 0x0a, 0, 0, 0])),
      /binary data/,
    ],
    [
      'a csv quote that never closes',
      file('open-quote.csv', `Message\n"${'x'.repeat(17 * 1024 * 1024)}`),
      /quote is probably never closed/,
    ],
    [
      'UTF-16 with a broken surrogate',
      file(
        'bad-utf16.csv',
        Buffer.concat([
          Buffer.from([0xff, 0xfe]),
          Buffer.from('Message\nhi\n', 'utf16le'),
          Buffer.from([0x00, 0xd8, 0x41, 0x00]),
        ]),
      ),
      /not valid UTF-16 LE text/,
    ],
    [
      'a replacement character in the text',
      file('replacement.csv', 'Message\ncaf\uFFFD cr\uFFFDme\n'),
      /letters lost when the file was converted/,
    ],
    [
      'escape sequences in a header',
      file('escapes.csv', 'Message,\u001b]0;pwned\u0007\u001b[2JEvil\u001b[31m\nhello,x\n'),
      /Column B .*Evil.* is not a field/,
    ],
  ]
}

describeWithTools('hostile files through skill-runner validate', () => {
  it('each ends with a clear file error, exit code 1, bounded time and memory; --annotate too', async () => {
    const failures: string[] = []
    const runs: Outcome[] = []
    for (const [what, path, message] of corpus()) {
      for (const annotate of [false, true]) {
        const args = [
          'validate',
          path,
          '--template',
          'row-echo',
          '--base-url',
          sandbox.url,
          '--json',
        ]
        if (annotate) args.push('--annotate', join(dir, 'annotated.xlsx'))
        const run = await cli(args)
        runs.push(run)
        const label = `${what}${annotate ? ' (--annotate)' : ''}`
        const problems: string[] = []
        if (run.code !== 1) problems.push(`exit code ${run.code}`)
        let answer: { valid?: boolean; fileErrors?: string[] } = {}
        try {
          answer = JSON.parse(run.stdout) as typeof answer
        } catch {
          problems.push('no JSON on stdout')
        }
        const errors = (answer.fileErrors ?? []).join(' ')
        if (answer.valid !== false || !message.test(errors))
          problems.push(`file errors: ${errors.slice(0, 200)}`)
        const all = run.stdout + run.stderr
        if (/bug|Invalid (time value|array length)|FILE_ENDED|reading '/i.test(all))
          problems.push('an internal message')
        if (
          [...run.stderr].some((ch) =>
            ch.charCodeAt(0) < 32 ? ch !== '\n' && ch !== '\t' : ch.charCodeAt(0) === 127,
          )
        )
          problems.push('control characters on stderr')
        if (annotate && !/annotated copy/.test(run.stderr))
          problems.push(`nothing said about the annotated copy: ${run.stderr.slice(0, 200)}`)
        if (run.peakRssMb > PEAK_RSS_MB) problems.push(`peak RSS ${run.peakRssMb.toFixed(0)} MB`)
        if (problems.length) failures.push(`${label}: ${problems.join('; ')}`)
      }
    }
    console.log(
      `hostile-cli: ${runs.length} runs; largest peak RSS ${Math.max(...runs.map((r) => r.peakRssMb)).toFixed(0)} MB, longest ${(Math.max(...runs.map((r) => r.ms)) / 1000).toFixed(1)} s`,
    )
    expect(failures).toEqual([])
  }, 600_000)
})

describeWithTools('text from a file on the terminal', () => {
  it('prints a header with escape sequences without them', async () => {
    const path = file(
      'escapes-plain.csv',
      'Message,\u001b]0;pwned\u0007\u001b[2JEvil\u001b[31m\u009b2J\nhello,x\n',
    )
    const run = await cli(['validate', path, '--template', 'row-echo', '--base-url', sandbox.url])
    expect(run.code).toBe(1)
    const all = run.stdout + run.stderr
    expect(all).toMatch(/Column B “Evil” is not a field of this template/)
    expect(all).not.toContain('\u001b')
    expect(all).not.toContain('\u009b')
    expect(all).not.toContain('pwned')
  }, 60_000)
})
