// Typed with the window's types (tsconfig.web.json): it builds the stores the window has.
// Choosing one listing and then another: the form on screen is always the listing chosen last,
// whatever order the service answers in (a slow answer for the first must not replace it).
import { describe, expect, it } from 'vitest'
import { BridgeError, type BridgeApi, type ListingView } from '../../src/shared/bridge'
import { createStores } from '../../src/renderer/stores/create-stores'

function listing(listingId: string): ListingView {
  return {
    environment: 'Market',
    listingId,
    displayName: `Listing ${listingId}`,
    description: '',
    listingVersionId: 'v1',
    publishedVersionId: 'v1',
    taskFixedFeeT: 4,
    pricingRuleVersion: 'flat-task-fee-1',
    unitLabel: 'credits',
    status: 'published',
    saleStatus: 'on_sale',
    executionAvailabilityStatus: 'available',
    executable: true,
    columns: [],
    fields: [],
    source: 'market',
    sourceNote: '',
  }
}

/** A promise the test settles when it chooses. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

/** Stores whose getListing answers each listing only when the test says so. */
function storesWithListings() {
  const answers = new Map<string, ReturnType<typeof deferred<ListingView>>>()
  const answerFor = (listingId: string) => {
    if (!answers.has(listingId)) answers.set(listingId, deferred<ListingView>())
    return answers.get(listingId)!
  }
  const api = new Proxy({} as BridgeApi, {
    get(_target, name: string) {
      if (name === 'then') return undefined
      if (name === 'on') return () => () => {}
      if (name === 'listTemplates')
        return async () => ({ environment: 'Market', items: [], offline: false })
      if (name === 'listPendingSubmissions')
        return async () => ({ environment: 'Market', items: [] })
      if (name === 'getTemplate') return () => new Promise(() => {})
      if (name === 'getListing')
        return (args: { listingId: string }) => answerFor(args.listingId).promise
      return async () => {
        throw new Error(`${name} is not part of this test`)
      }
    },
  })
  const stores = createStores(
    { api, shell: 'browser', pathForFile: () => '', onConnectionChange: () => () => {} },
    { toFileRef: async () => ({ kind: 'bytes', name: 'x', base64: '' }), download: () => {} },
  )
  return { prepare: stores.prepare, answerFor }
}

const notFound = () =>
  new BridgeError({
    code: 'not-found',
    message: 'There is no such listing here.',
    nextStep: 'Check the listing id.',
  })

/** Opens Market and chooses listing a, then b, before either has answered. */
async function chooseAThenB() {
  const { prepare, answerFor } = storesWithListings()
  await prepare.getState().open('Market')
  const first = prepare.getState().chooseListing('a', 'v1')
  const second = prepare.getState().chooseListing('b', 'v1')
  return { prepare, answerFor, first, second }
}

describe('choosing a listing, then another', () => {
  it('shows the second even when the first answers last', async () => {
    const { prepare, answerFor, first, second } = await chooseAThenB()
    answerFor('b').resolve(listing('b'))
    await second
    answerFor('a').resolve(listing('a'))
    await first
    expect(prepare.getState().listing?.listingId).toBe('b')
    expect(prepare.getState().listingLoading).toBe(false)
    expect(prepare.getState().listingError).toBeNull()
  })

  it('keeps the second when the first fails late', async () => {
    const { prepare, answerFor, first, second } = await chooseAThenB()
    answerFor('b').resolve(listing('b'))
    await second
    answerFor('a').reject(notFound())
    await first
    expect(prepare.getState().listing?.listingId).toBe('b')
    expect(prepare.getState().listingError).toBeNull()
  })

  it('still says it is loading the second while only the first has answered', async () => {
    const { prepare, answerFor, first } = await chooseAThenB()
    answerFor('a').reject(notFound())
    await first
    expect(prepare.getState().listing).toBeNull()
    expect(prepare.getState().listingError).toBeNull()
    expect(prepare.getState().listingLoading).toBe(true)
  })

  it('a template chosen after a listing is not joined by the listing’s late failure', async () => {
    const { prepare, answerFor } = storesWithListings()
    await prepare.getState().open('Market')
    const first = prepare.getState().chooseListing('a', 'v1')
    void prepare.getState().chooseTemplate('row-echo')
    answerFor('a').reject(notFound())
    await first
    expect(prepare.getState().listingError).toBeNull()
  })
})
