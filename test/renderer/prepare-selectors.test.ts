// The New run screen's plain functions: file cells matched to a dropped folder, the check's
// headline, and the words the connection card and the token note use.
import { describe, expect, it } from 'vitest'
import { checkHeadline } from '../../src/renderer/stores/prepare/check-slice'
import { describeFileKinds } from '../../src/renderer/stores/prepare/field-words'
import { describeAge } from '../../src/shared/format/time'
import { countFileCells, resolveFileCells } from '../../src/renderer/stores/prepare/files-slice'
import { stepWords, versionDetail } from '../../src/renderer/stores/plain-words'
import { tokenStoreNote } from '../../src/core/secrets'
import type { FileCellView, WorkbookCheckView } from '../../src/shared/bridge'

const cell = (value: string, state: FileCellView['state'] = 'unchecked'): FileCellView => ({
  value,
  rowNumber: 2,
  fieldKey: 'photo',
  state,
})

describe('file cells and a dropped folder', () => {
  const folder = new Map([
    ['shoot/a.png', new File(['a'], 'a.png')],
    ['shoot/sub/B.PNG', new File(['b'], 'B.PNG')],
  ])

  it('matches paths beside the folder, inside it, and ignoring case last', () => {
    const resolved = resolveFileCells(
      [
        cell('shoot/a.png'),
        cell('a.png'),
        cell('.\\sub\\b.png'),
        cell('missing.png'),
        cell('https://x.example/a.png', 'url'),
      ],
      folder,
    )
    expect(resolved.map((c) => [c.state, c.key])).toEqual([
      ['found', 'shoot/a.png'],
      ['found', 'shoot/a.png'],
      ['found', 'shoot/sub/B.PNG'],
      ['missing', 'missing.png'],
      ['url', 'https://x.example/a.png'],
    ])
    expect(countFileCells(resolved)).toEqual({ found: 3, missing: 1, url: 1, unchecked: 0 })
  })

  it('without a folder, nothing is looked for yet', () => {
    expect(resolveFileCells([cell('a.png')], new Map())[0]?.state).toBe('unchecked')
  })
})

describe('words on the screen', () => {
  it('the check in one line', () => {
    const base = {
      rowCount: 1200,
      fileErrors: [],
      problems: [],
      valid: true,
    } as unknown as WorkbookCheckView
    expect(
      checkHeadline({ ...base, target: { kind: 'template', templateId: 't', name: 'T' } }),
    ).toBe('1,200 rows, no problems: ready to send.')
    expect(checkHeadline({ ...base, target: null })).toMatch(/Choose what this workbook is for/)
  })

  it('a file field names the kinds it takes as people say them, never a MIME type', () => {
    const words = describeFileKinds({
      acceptedInputKinds: ['asset'],
      acceptedMimeTypes: ['application/pdf', 'image/png', 'image/x-unheard'],
    })
    expect(words).toBe('Takes a file from this computer of type PDF document, PNG image, Image')
    expect(words).not.toMatch(/application\/|image\//)
  })

  it('ages', () => {
    const now = 10 * 24 * 3600_000
    expect(describeAge(now - 30_000, now)).toBe('just now')
    expect(describeAge(now - 3 * 3600_000, now)).toBe('3 hours ago')
    expect(describeAge(now - 5 * 24 * 3600_000, now)).toBe('5 days ago')
  })

  it('the version step says the kind of service; the version goes under Details, never the JSON', () => {
    const step = {
      step: 'version',
      title: 'Interface version',
      ok: true,
      status: 200,
      message: 'Version: {"name":"skill-sandbox","version":"1.4.0"}',
      skipped: false,
      body: { name: 'skill-sandbox', version: '1.4.0' },
    } as const
    expect(stepWords(step)).toBe('It is the kind of service this app works with.')
    expect(versionDetail(step)).toBe('It runs version skill-sandbox 1.4.0.')
    expect(versionDetail(step)).not.toContain('{')
  })

  // Request paths, JSON and keychain (D-Bus) text are kept out at the source: see
  // test/engine/plain-errors.test.ts.
  it('the token note names where a token comes from', () => {
    // A token from the environment: the engine names the variable, nothing is saved.
    expect(
      tokenStoreNote({
        kind: 'environment',
        description: 'the SKILL_RUNNER_TOKEN environment variable',
        canSaveTokens: false,
        advice: '',
      }),
    ).toBe('Taken from the SKILL_RUNNER_TOKEN environment variable; nothing is saved.')
  })
})
