// Compare names a row's inputs as the buyer's sheet did (the template's column headers, or the
// mapped sheet's own), so the window shows "Message: Hello" rather than the fields' keys.
import { describe, expect, it } from 'vitest'
import { compareRuns } from '../../src/core/flows/compare/compare-runs'
import { sendRowEcho } from '../helpers/engine'
import { useLocalBridge } from '../helpers/local-bridge'
import { inputWords } from '../../src/renderer/compare/input-words'

const { engine, connection } = useLocalBridge('sr-compare-names-')

describe('the compared rows’ inputs', () => {
  it('are named by the template’s column headers', async () => {
    const a = await sendRowEcho(engine, connection, [{ message: 'only in A', sequence: 1 }], [2])
    const b = await sendRowEcho(engine, connection, [{ message: 'only in B', sequence: 2 }], [2])
    const schema = (await engine.schemas.template(connection, 'row-echo')).schema
    const header = (key: string) => schema.columns.find((c) => c.fieldKey === key)!.headerLabel
    const view = await compareRuns(engine, connection, a, b)
    expect(view.inputNames).toMatchObject({
      message: header('message'),
      sequence: header('sequence'),
    })
    const alone = view.rows.find((row) => row.a && !row.b)!
    expect(inputWords(alone.inputs!, view.inputNames!)).toBe(
      `${header('message')}: only in A · ${header('sequence')}: 1`,
    )
  })

  it('say several values, yes or no and files in words, never as JSON', () => {
    const words = inputWords(
      { tags: ['red', 'blue'], urgent: true, photo: { inputAssetId: 'asset_1' }, note: '' },
      { tags: 'Tags', urgent: 'Urgent' },
    )
    expect(words).toBe('Tags: red; blue · Urgent: Yes · photo: a file · note: —')
  })
})
