// The service client's public face: the ApiClient, its options, the body builder for large
// uploads, and the error, retry and paging pieces other flows reuse.
export { ApiClient } from './client'
export type { ApiClientOptions, FetchLike, HttpAnswer } from './transport'
export { nodeHttpFetcher, type HttpInit } from './node-http'
export { base64JsonBody } from './bodies'
export { readAtMost } from './limits'
export * from './errors'
export * from './retry'
export * from './paginate'
