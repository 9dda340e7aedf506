// `templates list` against a sandbox started as a real environment (--base-url, not the
// built-in shortcut): after Bea ran a template and a listing, both are listed from her runs,
// the listing with the version she ran; Ada, the creator, sees her own listings with the
// version to pass as --version, and `listings` gains that column.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCliCaptured, useBuyerOnCli } from '../helpers/cli'
import {
  CREATOR_TOKEN,
  LISTING_ARGS,
  LISTING_ID,
  LISTING_VERSION,
  writeBuyerWorkbook,
} from '../helpers/buyer-seed'

interface ListedItem {
  kind: string
  id: string
  name: string
  versionId?: string
  source: string
  lastUsedAtUnix?: number
}

describe('templates list', () => {
  const bea = useBuyerOnCli('sr-templates-list-')

  it('is empty of runs at first, then lists what was run, with its version', async () => {
    const before = await bea.cli(['templates', 'list', '--json'])
    expect(before.code, before.stderr).toBe(0)
    const first = JSON.parse(before.stdout) as { items: ListedItem[] }
    // Bea is no creator and has run nothing: the service tells nothing yet.
    expect(first.items.filter((i) => i.source === 'runs')).toEqual([])

    const csv = join(bea.home, 'echo.csv')
    const { writeFile } = await import('node:fs/promises')
    await writeFile(csv, 'Message\nhello\nworld\n')
    const ran = await bea.cli(['run', csv, '--template', 'tpl-echo', '--watch', '--json', '--yes'])
    expect(ran.code, ran.stderr).toBe(0)
    const book = join(bea.home, 'ad.xlsx')
    await writeBuyerWorkbook(book, [['Kettle', 'friendly', 20]])
    const executed = await bea.cli(['execute', book, ...LISTING_ARGS, '--yes', '--json'])
    expect(executed.code, executed.stderr).toBe(0)

    const after = await bea.cli(['templates', 'list', '--json'])
    expect(after.code, after.stderr).toBe(0)
    const items = (JSON.parse(after.stdout) as { items: ListedItem[] }).items
    const listing = items.find((i) => i.kind === 'listing' && i.id === LISTING_ID)
    expect(listing).toMatchObject({ name: 'Ad copy', versionId: LISTING_VERSION, source: 'runs' })
    expect(listing?.lastUsedAtUnix).toBeGreaterThan(0)
    const template = items.find((i) => i.kind === 'template' && i.id === 'tpl-echo')
    expect(template).toMatchObject({ name: 'Echo', source: 'runs' })
    expect(Object.keys(template!).sort()).toEqual([
      'id',
      'kind',
      'lastUsedAtUnix',
      'name',
      'source',
    ])

    const text = await bea.cli(['templates', 'list'])
    expect(text.stdout).toMatch(/KIND\s+NAME\s+ID\s+VERSION\s+LAST USED/)
    expect(text.stdout).toMatch(
      new RegExp(`listing\\s+Ad copy\\s+${LISTING_ID}\\s+${LISTING_VERSION}`),
    )
  })

  it('shows a creator her own listings, and `listings` the version to pass', async () => {
    // Ada works on her own computer: nothing was sent from it.
    const adaHome = mkdtempSync(join(tmpdir(), 'sr-templates-list-ada-'))
    const asAda = (args: string[]) =>
      runCliCaptured([...args, '--base-url', bea.sandbox.url], {
        SKILL_RUNNER_HOME: adaHome,
        SKILL_RUNNER_TOKEN: CREATOR_TOKEN,
      })
    const listed = await asAda(['templates', 'list', '--json'])
    expect(listed.code, listed.stderr).toBe(0)
    const own = (JSON.parse(listed.stdout) as { items: ListedItem[] }).items.filter(
      (i) => i.source === 'own-listing',
    )
    expect(own.map((i) => [i.id, i.versionId])).toEqual(
      expect.arrayContaining([
        [LISTING_ID, LISTING_VERSION],
        ['ada-draft', 'draft-1'],
      ]),
    )
    const table = await asAda(['listings'])
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toMatch(/LISTING\s+NAME\s+VERSION\s+STATUS/)
    expect(table.stdout).toMatch(new RegExp(`${LISTING_ID}\\s+Ad copy\\s+${LISTING_VERSION}`))
  })
})
