/**
 * The creator domain: my marketplace listings (search, pages), one review request, and one of
 * my private templates with its versions, all read from the environment on screen.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { BridgeApi, BridgeErrorInfo } from '../../shared/bridge'
import type { CreatorListing, PrivateTemplate, ReviewRequest } from '../../shared/contract'
import { errorInfo } from './errors'

export const LISTINGS_PAGE = 50

type Lookup<T> =
  | { state: 'idle' }
  | { state: 'loading'; id: string }
  | { state: 'done'; id: string; value: T }
  | { state: 'failed'; id: string; error: BridgeErrorInfo }

export interface CreatorData {
  environment: string | null
  search: string
  listings: CreatorListing[]
  nextPageToken: string
  loading: boolean
  loadingMore: boolean
  loaded: boolean
  error: BridgeErrorInfo | null
  review: Lookup<ReviewRequest>
  template: Lookup<PrivateTemplate>
}

export interface CreatorActions {
  open(environment: string): Promise<void>
  setSearch(search: string): Promise<void>
  loadMore(): Promise<void>
  showReview(id: string): Promise<void>
  closeReview(): void
  showTemplate(templateId: string): Promise<void>
}

type CreatorState = CreatorData & CreatorActions

function listPage(api: BridgeApi, environment: string, search: string, pageToken?: string) {
  return api.listMyListings({
    environment,
    pageSize: LISTINGS_PAGE,
    ...(pageToken ? { pageToken } : {}),
    ...(search.trim() ? { search: search.trim() } : {}),
  })
}

/** A listing's review request and the private template, each opened on its own. */
function openedItemActions(
  api: BridgeApi,
  set: StoreApi<CreatorState>['setState'],
  get: StoreApi<CreatorState>['getState'],
): Pick<CreatorActions, 'showReview' | 'closeReview' | 'showTemplate'> {
  return {
    async showReview(id) {
      const { environment } = get()
      if (!environment) return
      set({ review: { state: 'loading', id } })
      try {
        const value = await api.getReviewRequest({ environment, id })
        set({ review: { state: 'done', id, value } })
      } catch (error) {
        set({ review: { state: 'failed', id, error: errorInfo(error) } })
      }
    },
    closeReview: () => set({ review: { state: 'idle' } }),
    async showTemplate(templateId) {
      const { environment } = get()
      if (!environment) return
      set({ template: { state: 'loading', id: templateId } })
      try {
        const value = await api.getPrivateTemplate({ environment, templateId })
        set({ template: { state: 'done', id: templateId, value } })
      } catch (error) {
        set({ template: { state: 'failed', id: templateId, error: errorInfo(error) } })
      }
    },
  }
}

export function createCreatorStore(api: BridgeApi) {
  return createStore<CreatorState>()((set, get) => {
    let generation = 0
    async function firstPage(environment: string, search: string) {
      const mine = ++generation
      set({ environment, search, loading: true, error: null, listings: [], nextPageToken: '' })
      try {
        const page = await listPage(api, environment, search)
        if (mine !== generation) return
        set({
          listings: page.items,
          nextPageToken: page.nextPageToken,
          loading: false,
          loaded: true,
        })
      } catch (error) {
        if (mine !== generation) return
        set({ loading: false, loaded: true, error: errorInfo(error) })
      }
    }
    return {
      environment: null,
      search: '',
      listings: [],
      nextPageToken: '',
      loading: false,
      loadingMore: false,
      loaded: false,
      error: null,
      review: { state: 'idle' },
      template: { state: 'idle' },
      async open(environment) {
        if (get().environment !== environment)
          set({ review: { state: 'idle' }, template: { state: 'idle' } })
        await firstPage(environment, get().environment === environment ? get().search : '')
      },
      async setSearch(search) {
        const { environment } = get()
        if (!environment) {
          set({ search })
          return
        }
        await firstPage(environment, search)
      },
      async loadMore() {
        const { environment, nextPageToken, loadingMore, search } = get()
        if (!environment || !nextPageToken || loadingMore) return
        const mine = generation
        set({ loadingMore: true })
        try {
          const page = await listPage(api, environment, search, nextPageToken)
          if (mine !== generation) return
          set((s) => ({
            listings: [...s.listings, ...page.items],
            nextPageToken: page.nextPageToken,
            loadingMore: false,
          }))
        } catch (error) {
          if (mine !== generation) return
          set({ loadingMore: false, error: errorInfo(error) })
        }
      },
      ...openedItemActions(api, set, get),
    }
  })
}

export type CreatorStore = ReturnType<typeof createCreatorStore>
