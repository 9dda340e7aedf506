/** Input Assets: uploading a file that a row then names by its inputAssetId. */
import { inputAssetSchema, paths, type InputAsset } from '../../../shared/contract'
import type { RequestBody, StreamedBody } from '../bodies'
import type { CallOptions, Transport } from '../transport'

export interface UploadRequest {
  filename: string
  contentType: string
  /** The file's bytes: base64 text, or a stream of base64 text chunks (see base64JsonBody). */
  content: string | StreamedBody
}

/**
 * POST inputAssets:upload. Not idempotent (the interface has no clientRequestId here), so it
 * is retried only when `retry` is set: a duplicate asset costs nothing, the uploader dedupes.
 */
export function upload(
  transport: Transport,
  request: UploadRequest,
  options?: CallOptions & { retry?: boolean },
): Promise<InputAsset> {
  const body: RequestBody =
    typeof request.content === 'string' ? { json: request } : request.content
  return transport.request(
    {
      name: 'upload',
      path: paths.upload(),
      answer: inputAssetSchema,
      body,
      ...(options?.retry ? { idempotent: true } : {}),
    },
    options,
  )
}
