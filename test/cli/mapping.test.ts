// --map, --map-file and remembered mappings on the command line, against the sandbox.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { useCliOnSandbox } from '../helpers/cli'

const { home, cli } = useCliOnSandbox('sr-map-')

/** A sheet of the user's own: a title, a blank row, renamed headers, an extra column. */
function ownSheet(name: string, extra = 'Owner'): string {
  const path = join(home, name)
  writeFileSync(
    path,
    `Messages for the echo skill,,,\n,,,\nText,Seq,Long notes,${extra}\nhello,1,first,ann\nagain,2,second,bo\n`,
  )
  return path
}

describe('column mapping on the command line', () => {
  it('without a mapping, validate prints the proposal and how to confirm it, exit 1', async () => {
    const sheet = ownSheet('proposal.csv')
    const result = await cli(['validate', sheet, '--template', 'row-echo', '--json'])
    expect(result.code).toBe(1)
    const json = JSON.parse(result.stdout)
    expect(json.valid).toBe(false)
    expect(json.proposedMapping).toEqual({
      Text: 'message',
      Seq: 'sequence',
      'Long notes': 'details',
      Owner: null,
    })
    expect(result.stderr).toMatch(/header row 3/)
    expect(result.stderr).toContain('--map "Text=message,Seq=sequence,Long notes=details,Owner="')
  })

  it('--map validates, says the mapping in the result, and is remembered for the same headers', async () => {
    const sheet = ownSheet('mapped.csv')
    const map = 'Text=message,Seq=sequence,Long notes=details,Owner='
    const result = await cli(['validate', sheet, '--template', 'row-echo', '--map', map, '--json'])
    expect(result.stderr).not.toMatch(/mapping/)
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({
      valid: true,
      fileErrors: [],
      rowErrors: [],
      mapping: { Text: 'message', Seq: 'sequence', 'Long notes': 'details', Owner: null },
    })
    const again = await cli(['validate', ownSheet('again.csv'), '--template', 'row-echo', '--json'])
    expect(again.code).toBe(0)
    expect(again.stderr).toMatch(/using the column mapping remembered for these headers/)
    expect(JSON.parse(again.stdout).mapping.Text).toBe('message')
  })

  it('--map-file reads a JSON mapping; a bad one is a usage error', async () => {
    const sheet = ownSheet('file.csv', 'Team')
    const file = join(home, 'map.json')
    writeFileSync(
      file,
      JSON.stringify({ Text: 'message', Seq: 'sequence', 'Long notes': null, Team: null }),
    )
    const result = await cli([
      'validate',
      sheet,
      '--template',
      'row-echo',
      '--map-file',
      file,
      '--json',
    ])
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout).mapping['Long notes']).toBeNull()
    writeFileSync(file, '["Text"]')
    const bad = await cli(['validate', sheet, '--template', 'row-echo', '--map-file', file])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/JSON object/)
  })

  it('a mapping to a field the template does not have is a file problem', async () => {
    const sheet = ownSheet('typo.csv', 'Who')
    const result = await cli([
      'validate',
      sheet,
      '--template',
      'row-echo',
      '--map',
      'Text=mesage,Seq=sequence,Long notes=,Who=',
      '--json',
    ])
    expect(result.code).toBe(1)
    expect(JSON.parse(result.stdout).fileErrors.join('\n')).toMatch(
      /“mesage”, which is not a field/,
    )
  })

  it('run stops with the proposal (nothing sent), and sends with --map', async () => {
    const sheet = ownSheet('run.csv', 'Desk')
    const stopped = await cli(['run', sheet, '--template', 'row-echo', '--json'])
    expect(stopped.code).toBe(1)
    expect(stopped.stderr).toContain('--map "Text=message,Seq=sequence,Long notes=details,Desk="')
    expect(stopped.stderr).toMatch(/nothing was sent/)
    const sent = await cli([
      'run',
      sheet,
      '--template',
      'row-echo',
      '--json',
      '--yes',
      '--map',
      'Text=message,Seq=sequence,Long notes=details,Desk=',
    ])
    expect(sent.code).toBe(0)
    const runId = JSON.parse(sent.stdout).runId
    expect(runId).toEqual(expect.any(String))

    // The results workbook names the inputs as the user's sheet did, in its order.
    const out = join(home, 'results.xlsx')
    const results = await cli(['runs', 'results', runId, '-o', out, '--json'])
    expect(results.code, results.stderr).toBe(0)
    const book = new ExcelJS.Workbook()
    await book.xlsx.readFile(out)
    const header = (book.worksheets[0]!.getRow(1).values as unknown[]).slice(1, 5)
    expect(header).toEqual(['Sheet row', 'Text', 'Seq', 'Long notes'])
  })

  it('the template’s own headers need no mapping and say nothing about one', async () => {
    const path = join(home, 'own.csv')
    writeFileSync(path, 'Message,Sequence number\nhello,1\n')
    const result = await cli(['validate', path, '--template', 'row-echo', '--json'])
    expect(result.code).toBe(0)
    expect(result.stderr).not.toMatch(/mapping/)
    expect(JSON.parse(result.stdout)).toEqual({ valid: true, fileErrors: [], rowErrors: [] })
  })
})

describe('a --map that leaves columns out or names one the sheet lacks', () => {
  it('a column the mapping does not name is not used, and stderr says so', async () => {
    const sheet = ownSheet('partial.csv', 'Cost centre')
    const map = 'Text=message,Seq=sequence,Long notes=details'
    const result = await cli(['validate', sheet, '--template', 'row-echo', '--map', map, '--json'])
    expect(result.code, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({
      valid: true,
      mapping: { Text: 'message', Seq: 'sequence', 'Long notes': 'details', 'Cost centre': null },
    })
    expect(result.stderr).toMatch(/Not used: column D “Cost centre”/)
  })

  it('refuses a --map naming a column the sheet does not have, and names the sheet’s headers', async () => {
    const sheet = ownSheet('missing.csv', 'Who')
    const map = 'Text=message,Seq=sequence,Nope=details'
    const result = await cli(['validate', sheet, '--template', 'row-echo', '--map', map, '--json'])
    expect(result.code).toBe(1)
    const errors: string[] = JSON.parse(result.stdout).fileErrors
    expect(errors.join('\n')).toMatch(/“Nope”.*no such column/)
    expect(errors.join('\n')).toContain('Text, Seq, Long notes, Who')
    const sent = await cli(['run', sheet, '--template', 'row-echo', '--yes', '--map', map])
    expect(sent.code, sent.stdout + sent.stderr).toBe(1)
    expect(sent.stdout + sent.stderr).toMatch(/“Nope”/)
  })
})
