// --skip-invalid on run against the sandbox: the valid rows are sent, the bad ones set aside in
// a workbook to fix; fixed there, that workbook sends just those rows.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { useCliOnSandbox } from '../helpers/cli'
import { readToFixSheet } from '../helpers/set-aside-book'

const { home, cli } = useCliOnSandbox('sr-aside-')

async function totalTasks(runId: string): Promise<number> {
  const shown = await cli(['runs', 'show', runId, '--json'])
  return JSON.parse(shown.stdout).run.totalTasks
}

/** `run FILE --template row-echo --skip-invalid --json --yes`, with `more` options. */
const runSkipping = (input: string, ...more: string[]) =>
  cli(['run', input, '--template', 'row-echo', '--skip-invalid', '--json', '--yes', ...more])

describe('run --skip-invalid', () => {
  it('sends the 47 valid rows of 50, sets 3 aside with a Problem column; fixed, those 3 are sent', async () => {
    const input = join(home, 'fifty.csv')
    const lines = ['Message,Sequence number']
    for (let i = 1; i <= 50; i += 1) lines.push(`Hello ${i},${[7, 20, 41].includes(i) ? 'n/a' : i}`)
    writeFileSync(input, lines.join('\n'))

    const refused = await cli(['run', input, '--template', 'row-echo', '--json'])
    expect(refused.code).toBe(1)

    const sent = await runSkipping(input)
    expect(sent.code).toBe(0)
    const answer = JSON.parse(sent.stdout)
    const asidePath = join(home, 'fifty (set aside).xlsx')
    expect(answer.setAside).toEqual({ path: asidePath, rows: 3 })
    expect(sent.stderr).toMatch(/3 rows with problems set aside/)
    expect(await totalTasks(answer.runId)).toBe(47)

    const { book, sheet } = await readToFixSheet(asidePath, ['Message', 'Sequence number'])
    expect(sheet.rowCount).toBe(4)
    expect(sheet.getCell('A2').value).toBe('Hello 7')
    expect(String(sheet.getCell('C2').value)).toMatch(
      /Sequence number: 'n\/a' is not a whole number/,
    )
    expect(sheet.getCell('B2').note).toBeTruthy()
    expect(book.getWorksheet('Set aside')!.state).toBe('hidden')
    expect(book.getWorksheet('Set aside')!.getColumn(2).values).toContain(answer.runId)

    // Fixed in the set-aside workbook, it sends just those rows (its Problem column left out).
    for (const r of [2, 3, 4]) sheet.getCell(r, 2).value = r
    await book.xlsx.writeFile(asidePath)
    const followUp = await cli(['run', asidePath, '--template', 'row-echo', '--json', '--yes'])
    expect(followUp.stderr).not.toMatch(/not a field/)
    expect(followUp.code).toBe(0)
    const watchRun = JSON.parse(followUp.stdout).runId
    expect(await totalTasks(watchRun)).toBe(3)
    expect(followUp.stderr).toContain(`set aside from run ${answer.runId}`)
    const history = JSON.parse((await cli(['history', '--json'])).stdout)
    const item = history.items.find((i: { runId: string }) => i.runId === watchRun)
    expect(item.retryOfRunId).toBe(answer.runId)
    expect(item.followUpOfRunId).toBe(answer.runId)
  })

  it('never overwrites an earlier set-aside workbook by default', async () => {
    const input = join(home, 'two.csv')
    writeFileSync(input, 'Message,Sequence number\nok,1\nbad,x\n')
    const first = await runSkipping(input)
    const second = await runSkipping(input, '--again')
    expect(JSON.parse(first.stdout).setAside.path).toBe(join(home, 'two (set aside).xlsx'))
    expect(JSON.parse(second.stdout).setAside.path).toBe(join(home, 'two (set aside 2).xlsx'))
  })

  it('sets aside every row with problems, past the 1,000 problems a check lists', async () => {
    const input = join(home, 'many.csv')
    const lines = ['Message,Sequence number']
    // 1,200 rows with a problem among 1,500: more than the check's list of problems holds.
    for (let i = 1; i <= 1500; i += 1) lines.push(`Hello ${i},${i % 5 === 0 ? i : 'n/a'}`)
    writeFileSync(input, lines.join('\n'))
    const sent = await runSkipping(input)
    expect(sent.stderr).toMatch(/1,200 rows with problems set aside/)
    expect(sent.code).toBe(0)
    const answer = JSON.parse(sent.stdout)
    expect(answer.setAside.rows).toBe(1200)
    expect(await totalTasks(answer.runId)).toBe(300)
    const book = new ExcelJS.Workbook()
    await book.xlsx.readFile(answer.setAside.path)
    expect(book.getWorksheet('To fix')!.rowCount).toBe(1201)
  })

  it('--set-aside without --skip-invalid is a usage error', async () => {
    const result = await cli(['run', 'x.csv', '--template', 'row-echo', '--set-aside', 'y.xlsx'])
    expect(result.code).toBe(2)
  })
})
