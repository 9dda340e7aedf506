/** The Creator screen: my listings, a review request, my private template. */
import type { Connects, VerbContext, Verbs } from './context'

export function creatorVerbs(
  ctx: VerbContext<Connects>,
): Verbs<'listMyListings' | 'getReviewRequest' | 'getPrivateTemplate'> {
  const connect = (environment: string) => ctx.engine.connect({ env: environment })
  return {
    async listMyListings(args) {
      const connection = await connect(args.environment)
      const page = await connection.client.listCreatorListings({
        search: args.search,
        pageSize: args.pageSize,
        pageToken: args.pageToken,
      })
      return { environment: connection.name, items: page.items, nextPageToken: page.nextPageToken }
    },
    getReviewRequest: async (args) =>
      (await connect(args.environment)).client.reviewRequest(args.id),
    getPrivateTemplate: async (args) =>
      (await connect(args.environment)).client.privateTemplate(args.templateId),
  }
}
