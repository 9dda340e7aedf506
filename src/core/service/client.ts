/**
 * The client for every endpoint of the Skill Execution Service: one method per endpoint, each
 * handing its work to the module of the spec's tag it belongs to (endpoints/). The transport
 * (transport.ts) holds the token, sends, retries and parses; this class is only the front of it.
 */
import type {
  CreatorListing,
  CreatorListingList,
  ExecuteBody,
  ExecutionResult,
  InputAsset,
  MarketListing,
  OfficialTemplateSchema,
  PrivateTemplate,
  ReviewRequest,
  RunDetail,
  RunList,
  RunRowsAcceptance,
  RunRowsBody,
  RunSummary,
  WorkbookValidation,
} from '../../shared/contract'
import { fetchArtifact, type ArtifactFetchInit } from './artifacts'
import type { WithTexts } from './endpoints/calls'
import * as creators from './endpoints/creators'
import * as inputAssets from './endpoints/input-assets'
import * as marketListings from './endpoints/market-listings'
import * as runs from './endpoints/runs'
import * as system from './endpoints/system'
import * as templates from './endpoints/templates'
import { keepNoParts, type RunDetailHead, type RunDetailSink } from './run-detail-stream'
import { Transport, type ApiClientOptions, type CallOptions, type HttpAnswer } from './transport'

export class ApiClient {
  readonly baseUrl: string
  readonly origin: string
  private readonly transport: Transport

  constructor(options: ApiClientOptions) {
    this.transport = new Transport(options)
    this.baseUrl = this.transport.baseUrl
    this.origin = this.transport.origin
  }

  // ---- System ---------------------------------------------------------------------------

  /** GET /healthz: reachability only. Never throws for an HTTP status; only when unreachable. */
  healthz(options?: CallOptions): Promise<system.HealthAnswer> {
    return system.healthz(this.transport, options)
  }

  /** GET /version. Never throws for an HTTP status; only when unreachable. */
  version(options?: CallOptions): Promise<system.HealthAnswer> {
    return system.version(this.transport, options)
  }

  /** GET /svc/v1/models: the authenticated call that proves the token works. */
  models(options?: CallOptions): Promise<unknown> {
    return system.models(this.transport, options)
  }

  // ---- Official and user templates --------------------------------------------------------

  templateSchema(templateId: string, options?: CallOptions): Promise<OfficialTemplateSchema> {
    return templates.templateSchema(this.transport, templateId, options)
  }

  /** POST runRows. Idempotent through body.clientRequestId, so it is retried. */
  runRows(
    templateId: string,
    body: WithTexts<RunRowsBody, 'rows'>,
    options?: CallOptions,
  ): Promise<RunRowsAcceptance> {
    return templates.runRows(this.transport, templateId, body, options)
  }

  privateTemplate(templateId: string, options?: CallOptions): Promise<PrivateTemplate> {
    return templates.privateTemplate(this.transport, templateId, options)
  }

  // ---- Market listings ------------------------------------------------------------------

  /** GET marketListings/{id}: the buyer's view of a published listing (DESIGN.md). */
  marketListing(listingId: string, options?: CallOptions): Promise<MarketListing> {
    return marketListings.marketListing(this.transport, listingId, options)
  }

  /** POST :execute. Spends money: call only after the user confirmed (body.confirm). */
  execute(
    listingId: string,
    body: WithTexts<ExecuteBody, 'inputRows'>,
    options?: CallOptions,
  ): Promise<ExecutionResult> {
    return marketListings.execute(this.transport, listingId, body, options)
  }

  /** POST :validateWorkbook, the bytes streamed as the interface's integer array. */
  validateWorkbook(
    listingId: string,
    request: marketListings.ValidateWorkbookRequest,
    options?: CallOptions,
  ): Promise<WorkbookValidation> {
    return marketListings.validateWorkbook(this.transport, listingId, request, options)
  }

  // ---- Input assets ---------------------------------------------------------------------

  /** POST inputAssets:upload; resent after a failure only when `retry` is set. */
  upload(
    request: inputAssets.UploadRequest,
    options?: CallOptions & { retry?: boolean },
  ): Promise<InputAsset> {
    return inputAssets.upload(this.transport, request, options)
  }

  // ---- Runs -----------------------------------------------------------------------------

  listRuns(query: runs.RunsQuery = {}, options?: CallOptions): Promise<RunList> {
    return runs.listRuns(this.transport, query, options)
  }

  /** Every run (newest first) up to `limit`, following page tokens. */
  listAllRuns(
    query: runs.AllRunsQuery = {},
    options?: CallOptions,
  ): Promise<{ items: RunSummary[]; totalCount: number }> {
    return runs.listAllRuns(this.transport, query, options)
  }

  /** One run's detail, whole in memory: for a run whose tasks fit there (see readRun). */
  run(runId: string, options?: CallOptions): Promise<RunDetail> {
    return runs.run(this.transport, runId, options)
  }

  /** One run's summary: its detail read as it arrives, nothing of its tasks and outputs kept. */
  async runSummary(runId: string, options?: CallOptions): Promise<RunSummary> {
    return (await this.readRun(runId, () => keepNoParts, options)).run
  }

  /**
   * One run's detail read as it arrives, each task and output handed to the sink `open` makes
   * (afresh for each attempt), never held whole; resolves to the run's summary and market.
   */
  readRun(runId: string, open: () => RunDetailSink, options?: CallOptions): Promise<RunDetailHead> {
    return runs.readRun(this.transport, runId, open, options)
  }

  // ---- Creators -------------------------------------------------------------------------

  listCreatorListings(
    query: creators.ListingsQuery = {},
    options?: CallOptions,
  ): Promise<CreatorListingList> {
    return creators.listCreatorListings(this.transport, query, options)
  }

  /** Every listing of the creator up to `limit`, following page tokens. */
  listAllCreatorListings(
    query: creators.AllListingsQuery = {},
    options?: CallOptions,
  ): Promise<CreatorListing[]> {
    return creators.listAllCreatorListings(this.transport, query, options)
  }

  reviewRequest(id: string, options?: CallOptions): Promise<ReviewRequest> {
    return creators.reviewRequest(this.transport, id, options)
  }

  // ---- Artifacts ------------------------------------------------------------------------

  /**
   * Fetches an artifact's accessUrl and returns the streaming answer (2xx only). The token goes
   * only to the environment's origin, and never past a redirect that left it.
   */
  fetchArtifact(accessUrl: string, init: ArtifactFetchInit = {}): Promise<HttpAnswer> {
    return fetchArtifact(this.transport, accessUrl, init)
  }
}
