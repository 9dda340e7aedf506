import { describe, expect, it } from 'vitest'
import { paths } from '../../src/shared/contract'
import { call, requestId, useTestSandbox } from '../helpers/sandbox'

const csv = (text: string) => [...Buffer.from(text, 'utf8')]

describe('sandbox: validateWorkbook checks before reading the file', () => {
  const sb = useTestSandbox({ tokens: ['tok-creator', 'tok-buyer'] })

  const validate = (listingId: string, body: Record<string, unknown>) =>
    call<{ error: string }>(sb, paths.validateWorkbook(listingId), { body })

  const good = () => ({
    clientRequestId: requestId(),
    confirm: true,
    listingVersionId: 'press-release-polisher-v1',
    filename: 'rows.csv',
    content: csv('Headline,Draft text\nHello,World\n'),
  })

  it('answers 404 for an unknown or hidden listing', async () => {
    expect((await validate('no-such-listing', good())).status).toBe(404)
    // Another creator's listing that is not published is not visible to a buyer.
    const hidden = await call(sb, paths.validateWorkbook('recipe-scaler'), {
      token: 'tok-buyer',
      body: { ...good(), listingVersionId: 'recipe-scaler-v1' },
    })
    expect(hidden.status).toBe(404)
  })

  it('requires confirm to be true', async () => {
    const result = await validate('press-release-polisher', { ...good(), confirm: false })
    expect(result.status).toBe(400)
    expect(result.body.error).toMatch(/confirm/)
  })

  it('answers 409 for a listing that cannot be executed or a stale version', async () => {
    const pending = await validate('recipe-scaler', { ...good(), listingVersionId: 'recipe-scaler-v1' })
    expect(pending.status).toBe(409)
    const stale = await validate('press-release-polisher', { ...good(), listingVersionId: 'old' })
    expect(stale.status).toBe(409)
    expect(stale.body.error).toMatch(/press-release-polisher-v1/)
  })

  it('rejects content that is not a list of bytes, naming the item', async () => {
    const cases: [unknown, RegExp][] = [
      ['aGVsbG8=', /content must be an array/],
      [[1, 2, 300], /content\[2\] is 300/],
      [[1, 'a'], /content\[1\]/],
      [[0.5], /content\[0\]/],
    ]
    for (const [content, message] of cases) {
      const result = await validate('press-release-polisher', { ...good(), content })
      expect(result.status, JSON.stringify(content)).toBe(400)
      expect(result.body.error).toMatch(message)
    }
    const missing = await validate('press-release-polisher', { ...good(), content: undefined })
    expect(missing.status).toBe(400)
    expect(missing.body.error).toMatch(/content is missing/)
    const noName = await validate('press-release-polisher', { ...good(), filename: '' })
    expect(noName.status).toBe(400)
    expect(noName.body.error).toMatch(/filename/)
  })
})
