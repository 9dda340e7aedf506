// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { CreatorScreen } from '../../src/renderer/screens/CreatorScreen'
import { HistoryScreen } from '../../src/renderer/screens/HistoryScreen'
import { SettingsScreen } from '../../src/renderer/screens/SettingsScreen'
import type { SettingsView } from '../../src/shared/bridge'
import type { CreatorListing } from '../../src/shared/contract'
import { environment } from '../helpers/run-fixtures'
import { historyEntry } from './history-fixtures'
import { bridgeError, buttonNamed, byLabel, click, pending, render, typeInto } from './harness'

const env = environment({ name: 'Sandbox' })

const entry = historyEntry

describe('the history', () => {
  it('says it is loading', async () => {
    const h = await render(() => <HistoryScreen env={env} />, { listHistory: () => pending() })
    expect(h.text()).toContain('Loading the history…')
  })

  it('says nothing was submitted yet', async () => {
    const h = await render(() => <HistoryScreen env={env} />, {
      listHistory: async () => ({ items: [], more: false }),
    })
    expect(h.text()).toContain('Nothing submitted yet.')
    await click(buttonNamed(h.container, 'Start a new run'))
    expect(h.stores.nav.getState().screen).toBe('prepare')
  })

  it('says what went wrong reading it', async () => {
    const h = await render(() => <HistoryScreen env={env} />, {
      listHistory: async () => {
        throw bridgeError('internal', 'The history could not be read.')
      },
    })
    expect(h.container.querySelector('[role="alert"]')!.textContent).toContain(
      'The history could not be read.',
    )
  })

  it('still shows what it loaded when the engine goes away (offline)', async () => {
    const h = await render(() => <HistoryScreen env={env} />, {
      listHistory: async () => ({ items: [entry()], more: false }),
    })
    h.stores.app.getState().setConnection('closed')
    await h.settle()
    expect(h.text()).toContain('The engine is not answering')
    expect(h.text()).toContain('orders.xlsx')
  })

  it('shows each submission with its run, cost, saves and retries; opening one opens its run', async () => {
    const h = await render(() => <HistoryScreen env={env} />, {
      listHistory: async () => ({
        items: [
          entry({ retries: ['run-2'] }),
          entry({
            id: 2,
            runId: 'run-2',
            retryOfRunId: 'run-1',
            rows: 1,
            costT: 4,
            costIsEstimate: true,
            runStatus: 'running',
          }),
        ],
        more: false,
      }),
    })
    expect(h.text()).toContain('12 credits')
    expect(h.text()).toContain('about 4 credits')
    expect(h.text()).toContain('2 files')
    expect(h.text()).toContain('Rows sent again once')
    expect(h.text()).toContain('retry of an earlier run')
    await click(buttonNamed(h.container, 'Open run run-2'))
    expect(h.stores.nav.getState()).toMatchObject({ screen: 'runs', openRunId: 'run-2' })
  })

  it('searches as the user types', async () => {
    const searches: unknown[] = []
    const h = await render(() => <HistoryScreen env={env} />, {
      listHistory: async (args: { search?: string }) => {
        searches.push(args.search)
        return { items: [], more: false }
      },
    })
    await typeInto(byLabel(h.container, 'Search the history'), '2026-01-05')
    await h.settleUntil(() => searches.at(-1) === '2026-01-05')
    expect(h.text()).toContain('Nothing in the history matches “2026-01-05”.')
  })

  it('keeps a long history to a window of rows in the page and asks for more near the end', async () => {
    const limits: number[] = []
    const h = await render(() => <HistoryScreen env={env} />, {
      listHistory: async (args: { limit?: number }) => {
        limits.push(args.limit ?? 0)
        return {
          items: Array.from({ length: 8 }, (_, i) => entry({ id: i, runId: `run-${i}` })),
          more: true,
        }
      },
    })
    await h.settle()
    // Eight entries fit in the window: the end is in sight, so the next page is asked for.
    expect(limits[0]).toBe(100)
    expect(limits.at(-1)).toBe(200)
  })
})

function listing(over: Partial<CreatorListing> = {}): CreatorListing {
  return {
    id: 'horoscope-writer',
    displayName: 'Horoscope writer',
    description: '',
    ownerUserId: 1,
    listingVersionId: 'v1',
    publishedVersionId: '',
    packageHash: '',
    inputSchemaSnapshot: '',
    pricingRuleVersion: '',
    pricingSnapshotHash: '',
    taskFixedFeeT: 7,
    status: 'rejected',
    saleStatus: 'not_on_sale',
    executionAvailabilityStatus: 'unavailable',
    reviewStatus: 'rejected',
    reviewReason: 'Not verifiable.',
    reviewRequestId: 'review-1',
    ...over,
  }
}

describe('the creator screen', () => {
  it('says it is loading my listings', async () => {
    const h = await render(() => <CreatorScreen env={env} />, { listMyListings: () => pending() })
    expect(h.text()).toContain('Loading your listings…')
  })

  it('says I have no listings', async () => {
    const h = await render(() => <CreatorScreen env={env} />, {
      listMyListings: async () => ({ environment: 'Sandbox', items: [], nextPageToken: '' }),
    })
    expect(h.text()).toContain('You have no listings here.')
    // The empty list offers its next step as a button: look again once a listing is created.
    expect(buttonNamed(h.container, 'Check again')).toBeTruthy()
  })

  it('says why listings cannot be read (offline)', async () => {
    const h = await render(() => <CreatorScreen env={env} />, {
      listMyListings: async () => {
        throw bridgeError('unreachable', 'The service did not answer.', 'Check your connection.')
      },
    })
    expect(h.container.querySelector('[role="alert"]')!.textContent).toContain(
      'The service did not answer.',
    )
  })

  it('shows status, sale, availability and review with its reason; opens the review request', async () => {
    const h = await render(() => <CreatorScreen env={env} />, {
      listMyListings: async () => ({
        environment: 'Sandbox',
        items: [listing()],
        nextPageToken: 'p2',
      }),
      getReviewRequest: async () => ({
        id: 'review-1',
        listingId: 'horoscope-writer',
        listingVersionId: 'v1',
        displayName: 'Horoscope writer',
        description: '',
        status: 'rejected',
        reviewReason: 'Not verifiable.',
        submittedAtUnix: 1_700_000_000,
        reviewedAtUnix: 1_700_100_000,
      }),
    })
    const row = h.container.querySelector('tr[data-listing-id="horoscope-writer"]')!
    for (const word of ['Rejected', 'Not on sale', 'Unavailable', 'Not verifiable.', '7 credits'])
      expect(row.textContent).toContain(word)
    expect(h.text()).toContain('Show more listings')
    await click(buttonNamed(h.container, 'Open the review request of Horoscope writer'))
    await h.settle()
    expect(h.text()).toContain('Review request: Horoscope writer')
  })

  it('pages through a long list of listings', async () => {
    const pages = new Map([
      ['', { items: Array.from({ length: 50 }, (_, i) => listing({ id: `l${i}` })), next: 'p2' }],
      ['p2', { items: [listing({ id: 'last' })], next: '' }],
    ])
    const h = await render(() => <CreatorScreen env={env} />, {
      listMyListings: async (args: { pageToken?: string }) => {
        const p = pages.get(args.pageToken ?? '')!
        return { environment: 'Sandbox', items: p.items, nextPageToken: p.next }
      },
    })
    expect(h.container.querySelectorAll('tr[data-listing-id]')).toHaveLength(50)
    await click(buttonNamed(h.container, 'Show more listings'))
    await h.settle()
    expect(h.container.querySelectorAll('tr[data-listing-id]')).toHaveLength(51)
    expect(h.text()).not.toContain('Show more listings')
  })

  it('shows a private template with its versions, or why not', async () => {
    const h = await render(() => <CreatorScreen env={env} />, {
      listMyListings: async () => ({ environment: 'Sandbox', items: [], nextPageToken: '' }),
      getPrivateTemplate: async (args: { templateId: string }) => {
        if (args.templateId !== 'weekly') throw bridgeError('not-found', 'No such template.')
        return {
          templateId: 'weekly',
          name: 'Weekly report',
          description: '',
          status: 'active',
          primaryOutputType: 'text/markdown',
          latestVersionId: 'v2',
          publishedVersionId: 'v1',
          createdAtUnix: 1,
          updatedAtUnix: 2,
          versions: [
            {
              versionId: 'v1',
              versionNumber: 1,
              specVersion: 'a',
              definitionHash: '',
              createdAtUnix: 1,
            },
            {
              versionId: 'v2',
              versionNumber: 2,
              specVersion: 'b',
              definitionHash: '',
              createdAtUnix: 2,
            },
          ],
        }
      },
    })
    const input = byLabel(h.container, 'Template ID')
    await typeInto(input, 'nope')
    await click(buttonNamed(h.container, 'Show'))
    await h.settle()
    expect(h.text()).toContain('No such template.')
    await typeInto(input, 'weekly')
    await click(buttonNamed(h.container, 'Show'))
    await h.settle()
    expect(h.text()).toContain('Version 2')
    expect(h.text()).toContain('Published')
    expect(h.text()).toContain('Latest')
  })
})

const settings: SettingsView = {
  outputsFolder: '/home/ann/Downloads/Skill Runner',
  defaultOutputsFolder: '/home/ann/Downloads/Skill Runner',
  notifications: true,
  downloadConcurrency: 8,
  theme: 'system',
  autoSaveOutputs: true,
}

describe('the settings screen', () => {
  it('says it is loading, then why it could not', async () => {
    let h = await render(() => <SettingsScreen env={env} />, {})
    await h.stores.settings.getState().load()
    await h.settle()
    expect(h.container.querySelector('[role="alert"]')).not.toBeNull()
    h.unmount()
    h = await render(() => <SettingsScreen env={env} />, { getSettings: () => pending() })
    void h.stores.settings.getState().load()
    await h.settle()
    expect(h.text()).toContain('Loading the settings…')
  })

  it('changes the outputs folder through the engine and says when a path is refused', async () => {
    const patches: unknown[] = []
    const h = await render(() => <SettingsScreen env={env} />, {
      getSettings: async () => settings,
      updateSettings: async (patch: { outputsFolder?: string }) => {
        patches.push(patch)
        if (patch.outputsFolder === 'relative')
          throw bridgeError(
            'invalid-arguments',
            '“relative” is not a full folder path.',
            'Give the full path.',
          )
        return { ...settings, ...patch }
      },
    })
    await h.stores.settings.getState().load()
    await h.settle()
    const folder = byLabel(h.container, 'Outputs folder')
    await typeInto(folder, 'relative')
    await click(folder.form!.querySelector('button[type="submit"]')!)
    await h.settle()
    expect(h.text()).toContain('“relative” is not a full folder path.')
    await typeInto(folder, '/data/outputs')
    await click(folder.form!.querySelector('button[type="submit"]')!)
    await h.settle()
    expect(patches.at(-1)).toEqual({ outputsFolder: '/data/outputs' })
    expect(h.stores.settings.getState().settings?.outputsFolder).toBe('/data/outputs')
    expect(h.text()).toContain('Saved.')
  })

  it('offers the folder picker in the desktop app only', async () => {
    const verbs = {
      getSettings: async () => settings,
      chooseOutputsFolder: async () => ({ ...settings, outputsFolder: '/picked/here' }),
    }
    let h = await render(() => <SettingsScreen env={env} />, verbs)
    await h.stores.settings.getState().load()
    await h.settle()
    expect(h.text()).not.toContain('Choose…')
    h.unmount()
    h = await render(() => <SettingsScreen env={env} />, verbs, 'electron')
    await h.stores.settings.getState().load()
    await h.settle()
    await click(buttonNamed(h.container, 'Choose…'))
    await h.settle()
    expect(byLabel(h.container, 'Outputs folder').value).toBe('/picked/here')
    expect(h.text()).toContain('Saved.')
  })

  it('switches the theme and notifications at once', async () => {
    const patches: unknown[] = []
    let kept = settings
    const h = await render(() => <SettingsScreen env={env} />, {
      getSettings: async () => kept,
      updateSettings: async (patch: Partial<SettingsView>) => {
        patches.push(patch)
        kept = { ...kept, ...patch }
        return kept
      },
    })
    await h.stores.settings.getState().load()
    await h.settle()
    const dark = [...h.container.querySelectorAll('input[type="radio"]')].find(
      (r) => r.parentElement?.textContent === 'Dark',
    ) as HTMLInputElement
    await click(dark)
    await h.settle()
    const box = h.container.querySelector('input[type="checkbox"]') as HTMLInputElement
    await click(box)
    await h.settle()
    expect(patches).toEqual([{ theme: 'dark' }, { notifications: false }])
    expect(h.stores.settings.getState().settings).toMatchObject({
      theme: 'dark',
      notifications: false,
    })
  })
})
