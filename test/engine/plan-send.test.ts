// The one flow that composes a paid send of a workbook (planSend), on a table of cases, with the
// real engine, the real sandbox over HTTP and the real workbook reader: a buyer's own sheet (a
// title row, renamed headers, an extra column) to a template and to a listing the buyer does not
// own, mapped, with its bad rows set aside (in the data folder or where the user chose), a pilot
// of its valid rows, its bad rows refused, and the set-aside rows fixed and sent back as the
// first run's follow-up. Rows are always named by the buyer's own sheet.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Connection, Engine } from '../../src/core/engine'
import { confirmPlan, planRestOfPilot, type Plan } from '../../src/core/flows/spend'
import { planSend, type SendRequest } from '../../src/core/flows/spend/plan-send'
import { keepSetAsideWithRun, type ReadSheet } from '../../src/core/flows/spend/set-aside'
import { parseInputWorkbook } from '../../src/core/workbooks'
import type { RunTarget } from '../../src/shared/run-target'
import { BUYER_SANDBOX, BUYER_TOKEN, LISTING_FEE, LISTING_TARGET } from '../helpers/buyer-seed'
import { runEnded, testEngine } from '../helpers/engine'
import { runCount, useTestSandbox } from '../helpers/sandbox'

const sandbox = useTestSandbox(BUYER_SANDBOX)
let engine: Engine
let connection: Connection
let home: string

const read: ReadSheet = (path, schema, more = {}) =>
  parseInputWorkbook({ path }, schema, { ...more, checkFiles: true })

/** Sheet rows: a title (1), a blank (2), the headers (3), data on rows 4 to 13. */
const DATA = [4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
const BAD = [7, 11]
const HEADERS = ['Item', 'Voice', 'Word count', 'Text', 'Owner']
const TARGETS: Record<string, { target: RunTarget; mapping: Record<string, string | null> }> = {
  template: {
    target: { kind: 'template', templateId: 'tpl-echo' },
    mapping: { Item: null, Voice: null, 'Word count': null, Text: 'message', Owner: null },
  },
  listing: {
    target: LISTING_TARGET,
    mapping: { Item: 'product', Voice: 'tone', 'Word count': 'words', Text: null, Owner: null },
  },
}

/** The buyer's own sheet; a bad row has no text (the template's) and words that are no number (the listing's). */
async function ownSheet(name: string, bad: readonly number[]): Promise<string> {
  const path = join(home, name)
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('Export')
  sheet.addRow([`Exported from the shop for ${name}`])
  sheet.addRow([])
  sheet.addRow(HEADERS)
  for (const r of DATA) {
    const isBad = bad.includes(r)
    sheet.addRow([
      `Lamp ${r}`,
      'friendly',
      isBad ? 'lots' : 10 + r,
      isBad ? '' : `Hello ${r}`,
      'bea',
    ])
  }
  await book.xlsx.writeFile(path)
  return path
}

/** The set-aside workbook with its rows fixed for either target, as the user saves it. */
async function fixed(path: string): Promise<string> {
  const book = new ExcelJS.Workbook()
  await book.xlsx.readFile(path)
  const toFix = book.getWorksheet('To fix')!
  for (let r = 2; r <= toFix.rowCount; r += 1) {
    toFix.getCell(r, 3).value = 40 + r
    toFix.getCell(r, 4).value = `Fixed ${r}`
  }
  const out = join(home, `fixed-${Date.now()}.xlsx`)
  await book.xlsx.writeFile(out)
  return out
}

interface Case {
  name: string
  to: 'template' | 'listing'
  bad?: readonly number[]
  /** The request beyond the file and the target; `chosen` puts the workbook to fix beside the sheet. */
  request?: Omit<Partial<SendRequest>, 'setAside'> & { setAside?: 'data-folder' | 'chosen' }
  /** Send the plan, then plan its set-aside rows fixed: the case is about that follow-up. */
  followUp?: boolean
  rows: number[] | null
  kind?: string
  setAside?: number
  pilot?: number
}

const mapped = (to: string) => ({ mapping: TARGETS[to]!.mapping })
const cases: Case[] = [
  {
    name: 'a template, its own sheet mapped',
    to: 'template',
    request: mapped('template'),
    rows: DATA,
    kind: 'all',
  },
  {
    name: 'a template, bad rows set aside in the data folder',
    to: 'template',
    bad: BAD,
    request: { ...mapped('template'), setAside: 'data-folder' },
    rows: DATA.filter((r) => !BAD.includes(r)),
    kind: 'valid',
    setAside: 2,
  },
  {
    name: 'a template, a pilot of 3 with the bad rows set aside where the user chose',
    to: 'template',
    bad: BAD,
    request: { ...mapped('template'), setAside: 'chosen', selection: { first: 3 } },
    rows: [4, 5, 6],
    kind: 'pilot',
    setAside: 2,
    pilot: 3,
  },
  {
    name: 'a template, bad rows and nothing set aside: refused',
    to: 'template',
    bad: BAD,
    request: mapped('template'),
    rows: null,
  },
  {
    name: 'a template, the set-aside rows fixed: the follow-up',
    to: 'template',
    bad: BAD,
    request: { ...mapped('template'), setAside: 'data-folder' },
    followUp: true,
    rows: BAD,
    kind: 'follow-up',
  },
  {
    name: 'a listing, its own sheet mapped (a copy)',
    to: 'listing',
    request: mapped('listing'),
    rows: DATA,
    kind: 'all',
  },
  {
    name: 'a listing, bad rows set aside where the user chose (a copy)',
    to: 'listing',
    bad: BAD,
    request: { ...mapped('listing'), setAside: 'chosen' },
    rows: DATA.filter((r) => !BAD.includes(r)),
    kind: 'valid',
    setAside: 2,
  },
  {
    name: 'a listing, bad rows and nothing set aside: refused by the check here',
    to: 'listing',
    bad: BAD,
    request: mapped('listing'),
    rows: null,
  },
  {
    name: 'a listing, the set-aside rows fixed: the follow-up (a copy)',
    to: 'listing',
    bad: BAD,
    request: { ...mapped('listing'), setAside: 'data-folder' },
    followUp: true,
    rows: BAD,
    kind: 'follow-up',
  },
]

/** The request of a case for `file`. */
function requestOf(c: Case, file: string): SendRequest {
  const { setAside, ...rest } = c.request ?? {}
  const where =
    setAside === 'chosen'
      ? { setAside: { path: join(home, `${c.to} chosen ${Date.now()}.xlsx`) } }
      : setAside === 'data-folder'
        ? { setAside: {} }
        : {}
  return { file, target: TARGETS[c.to]!.target, ...rest, ...where }
}

/** Sends `plan` and keeps its workbook to fix with the run, as both front doors do. */
async function send(plan: Plan): Promise<string> {
  const { submission } = await confirmPlan(engine, plan, { confirmed: true })
  await keepSetAsideWithRun(engine.home, plan.setAside!, submission.runId)
  return submission.runId
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'sr-plan-send-'))
  engine = testEngine(home)
  await engine.addEnvironment({ name: 'Market', baseUrl: sandbox.url, token: BUYER_TOKEN })
  connection = await engine.connect({ env: 'Market' })
})
afterAll(async () => {
  await engine.close()
})

describe('one flow composes every paid send of a workbook', () => {
  it.each(cases)('$name', async (c) => {
    const sheet = await ownSheet(`${c.name}.xlsx`, c.bad ?? [])
    const before = await runCount(sandbox)
    let file = sheet
    let plan = await planSend(engine, connection, read, requestOf(c, file))
    if (c.followUp) {
      expect(plan.setAside?.rows).toBe(2)
      const firstRun = await send(plan)
      // The fixed workbook's headers map by themselves: the mapping given first is remembered.
      file = await fixed(join(home, 'set-aside', `run-${encodeURIComponent(firstRun)}--2.xlsx`))
      plan = await planSend(engine, connection, read, { file, target: TARGETS[c.to]!.target })
      expect(plan.followsSetAsideOf).toBe(firstRun)
      expect(plan.retryOfRunId).toBe(firstRun)
    }
    if (c.rows === null) {
      expect(plan.id).toBe('')
      expect(plan.validation.valid).toBe(false)
      // The problems found here, in the buyer's own rows, not the service's words on a copy.
      expect(plan.validation.fileErrors).toEqual([])
      const rows = plan.validation.rowErrors.map((e) => DATA[e.rowIndex])
      expect(new Set(rows)).toEqual(new Set(BAD))
      return
    }
    // Said whole when it fails: which problem made the plan invalid.
    const { fileErrors, rowErrors } = plan.validation
    expect(plan.validation, JSON.stringify({ fileErrors, rowErrors })).toMatchObject({
      valid: true,
    })
    expect(plan.rowNumbers).toEqual(c.rows)
    expect(plan.batch?.kind).toBe(c.kind)
    expect(plan.pilotRows).toBe(c.pilot ?? null)
    // A listing's service is sent a copy under its own headers; the journal keeps the sheet.
    expect(plan.file !== file).toBe(c.to === 'listing')
    expect(plan.sheetFile).toBe(file)
    if (c.to === 'listing') expect(plan.estimateT).toBe(c.rows.length * LISTING_FEE)
    if (c.setAside) {
      expect(plan.setAside?.rows).toBe(c.setAside)
      const chosen = c.request?.setAside === 'chosen'
      expect(plan.setAside?.chosenByUser === true).toBe(chosen)
      expect(dirname(plan.setAside!.path)).toBe(chosen ? home : join(home, 'set-aside'))
    } else expect(plan.setAside).toBeUndefined()
    // Planning spends nothing: only the follow-up's first run was sent.
    expect(await runCount(sandbox)).toBe(before + (c.followUp ? 1 : 0))
  })

  it('plans the rest of a listing’s pilot from its own mapped sheet, as a copy the service accepts', async () => {
    const { target, mapping } = TARGETS.listing!
    const sheet = await ownSheet('rest of a listing pilot.xlsx', BAD)
    const request = { file: sheet, target, mapping, setAside: {}, selection: { first: 3 } }
    const pilot = await planSend(engine, connection, read, request)
    const pilotRun = await send(pilot)
    await runEnded(connection, pilotRun)
    const rest = await planRestOfPilot(engine, connection, read, pilotRun)
    expect(rest.validation).toMatchObject({ valid: true, fileErrors: [] })
    expect(rest.rowNumbers).toEqual([8, 9, 10, 12, 13])
    expect(rest.file).not.toBe(sheet)
    expect(rest.batch?.kind).toBe('rest')
    // The rows set aside by the pilot are left out again, not offered to fix a second time.
    expect(rest.setAside).toBeUndefined()
    expect(rest.estimateT).toBe(5 * LISTING_FEE)
  })
})
