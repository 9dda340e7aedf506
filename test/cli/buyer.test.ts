// The command line as a buyer who does not own the listing, against the real sandbox over HTTP:
// a workbook for the listing, a workbook with the listing's labels as headers validated and
// executed at rows x fee, the cap, a rerun that sends nothing without --again, and `web` opening
// on a given environment.
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { paths } from '../../src/shared/contract'
import { spawnCliSource, useBuyerOnCli } from '../helpers/cli'
import {
  BUYER_TOKEN,
  LISTING_ARGS as listing,
  LISTING_FEE,
  LISTING_ID,
  LISTING_VERSION,
  writeBuyerWorkbook,
} from '../helpers/buyer-seed'

const { sandbox, home, cli, runCount } = useBuyerOnCli('sr-cli-buyer-')

describe('a buyer on the command line', () => {
  it('writes an input workbook for a listing it does not own, with the listing’s labels', async () => {
    const out = join(home, 'for-listing.xlsx')
    const made = await cli(['templates', 'workbook', '--listing', LISTING_ID, '-o', out, '--json'])
    expect(made.code, made.stderr).toBe(0)
    expect(JSON.parse(made.stdout)).toEqual({ path: out })
    const book = new ExcelJS.Workbook()
    await book.xlsx.readFile(out)
    const headers = (book.getWorksheet('Input')!.getRow(1).values as unknown[]).slice(1)
    expect(headers.map((h) => String(h).replace(/\s*\*$/, ''))).toEqual([
      'Product',
      'Tone',
      'Words',
    ])
    const stale = await cli([
      'templates',
      'workbook',
      ...listing.slice(0, 2),
      '--version',
      'old',
      '-o',
      out,
    ])
    expect(stale.code).toBe(4)
    expect(stale.stderr).toMatch(new RegExp(`is at version ${LISTING_VERSION}, not old`))
  })

  it('validates, shows rows x fee, refuses above the cap, executes once, and answers a rerun with the same run', async () => {
    const file = join(home, 'ads.xlsx')
    await writeBuyerWorkbook(file, [
      ['Kettle', 'friendly', 20],
      ['Lamp', 'formal', null],
    ])
    const checked = await cli(['validate', file, ...listing, '--json'])
    expect(checked.code, checked.stderr).toBe(0)
    expect(JSON.parse(checked.stdout).valid).toBe(true)

    const before = await runCount()
    const capped = await cli(['execute', file, ...listing, '--yes', '--max-cost', '7'])
    expect(capped.code).toBe(1)
    expect(capped.stderr).toContain(`2 rows x ${LISTING_FEE} credits per task = 8 credits`)
    expect(capped.stderr).toMatch(/above your cap of 7/)
    expect(await runCount()).toBe(before)

    const done = await cli(['execute', file, ...listing, '--yes', '--max-cost', '8', '--json'])
    expect(done.code, done.stderr).toBe(0)
    const result = JSON.parse(done.stdout)
    expect(result).toMatchObject({ listingId: LISTING_ID, taskFixedFeeT: LISTING_FEE })
    expect(result.estimatedBuyerPayableT).toBe(2 * LISTING_FEE)
    expect(await runCount()).toBe(before + 1)

    // The same command again: nothing is sent, the earlier run is the answer (exit 0).
    const rerun = await cli(['execute', file, ...listing, '--yes', '--json'])
    expect(rerun.code).toBe(0)
    expect(JSON.parse(rerun.stdout).runId).toBe(result.runId)
    expect(rerun.stderr).toMatch(
      new RegExp(`already sent and accepted as run ${result.runId}.*--again`),
    )
    expect(await runCount()).toBe(before + 1)

    // --again sends it as a new paid run.
    const again = await cli(['execute', file, ...listing, '--yes', '--again', '--json'])
    expect(again.code, again.stderr).toBe(0)
    expect(JSON.parse(again.stdout).runId).not.toBe(result.runId)
    expect(await runCount()).toBe(before + 2)
  })

  it('a lost answer: the same command again resends the same request, one run in all', async () => {
    const file = join(home, 'lost.xlsx')
    await writeBuyerWorkbook(file, [['Chair', 'formal', 12]])
    const before = await runCount()
    // The service makes the run, then every answer of this command is lost.
    sandbox.injectFault({
      method: 'POST',
      path: paths.execute(LISTING_ID),
      drop: 'after',
      times: 4,
    })
    const lost = await cli(['execute', file, ...listing, '--yes', '--json'])
    expect(lost.code).toBe(3)
    expect(await runCount()).toBe(before + 1)
    const again = await cli(['execute', file, ...listing, '--yes', '--json'])
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toMatch(
      /sent earlier without an answer; it is sent again with the same request ID/,
    )
    expect(await runCount()).toBe(before + 1)
  })

  it('a template rerun after acceptance sends nothing without --again', async () => {
    const csv = join(home, 'echo.csv')
    const { writeFile } = await import('node:fs/promises')
    await writeFile(csv, 'Message\nhello\n')
    const first = await cli(['run', csv, '--template', 'tpl-echo', '--yes', '--json'])
    expect(first.code, first.stderr).toBe(0)
    const before = await runCount()
    const rerun = await cli(['run', csv, '--template', 'tpl-echo', '--yes', '--json'])
    expect(rerun.code).toBe(0)
    expect(JSON.parse(rerun.stdout).runId).toBe(JSON.parse(first.stdout).runId)
    expect(await runCount()).toBe(before)
    // Without a known cost, a cap cannot be checked: refused, nothing sent.
    const capped = await cli([
      'run',
      csv,
      '--template',
      'tpl-echo',
      '--yes',
      '--again',
      '--max-cost',
      '1',
    ])
    expect(capped.code).toBe(1)
    expect(await runCount()).toBe(before)
  })

  it('web --base-url opens the app on that service', async () => {
    const child = spawnCliSource(['web', '--port', '0', '--base-url', sandbox.url], {
      SKILL_RUNNER_HOME: home,
      SKILL_RUNNER_TOKEN: BUYER_TOKEN,
    })
    try {
      const appUrl = await new Promise<string>((resolve, reject) => {
        let text = ''
        child.stdout!.on('data', (chunk: Buffer) => {
          text += chunk.toString()
          const found = /app at (\S+)/.exec(text)
          if (found) resolve(found[1]!)
        })
        child.once('exit', () => reject(new Error('web exited')))
      })
      const url = new URL(appUrl)
      const secret = url.searchParams.get('s') ?? url.hash.replace(/^#.*s=/, '')
      const answer = await fetch(`${url.origin}/bridge/listEnvironments`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: url.origin,
          'x-skill-runner-secret': secret,
        },
        body: '{}',
      })
      expect(answer.status).toBe(200)
      const list = (await answer.json()) as {
        ok: boolean
        value: { items: { name: string; baseUrl: string; isDefault: boolean }[] }
      }
      expect(list.ok).toBe(true)
      const chosen = list.value.items.find((e) => e.isDefault)
      expect(chosen?.baseUrl).toBe(sandbox.url)
    } finally {
      child.kill('SIGTERM')
    }
  }, 60_000)
})
