/**
 * The creator domain: my marketplace listings (search, pages), one review request, and one of
 * my private templates with its versions, all read from the environment on screen.
 */
import { createStore } from 'zustand/vanilla'
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

export function createCreatorStore(api: BridgeApi) {
  return createStore<CreatorData & CreatorActions>()((set, get) => {
    let generation = 0
    async function firstPage(environment: string, search: string) {
      const mine = ++generation
      set({ environment, search, loading: true, error: null, listings: [], nextPageToken: '' })
      try {
        const page = await api.listMyListings({
          environment,
          pageSize: LISTINGS_PAGE,
          ...(search.trim() ? { search: search.trim() } : {}),
        })
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
          const page = await api.listMyListings({
            environment,
            pageSize: LISTINGS_PAGE,
            pageToken: nextPageToken,
            ...(search.trim() ? { search: search.trim() } : {}),
          })
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
  })
}

export type CreatorStore = ReturnType<typeof createCreatorStore>
