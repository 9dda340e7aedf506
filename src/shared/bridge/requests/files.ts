/** Files moving between this computer and the service: dropped files, uploads, downloads. */
import { z } from 'zod'
import type { DownloadResultView, DroppedFileInfo, UploadResultView } from '../views/files'
import { environmentNameSchema, fileRefSchema, request, workIdSchema } from './arguments'

export const fileRequests = {
  describeFile: request<DroppedFileInfo>()(z.strictObject({ file: fileRefSchema })),
  /** Uploads dropped files as input assets (once per content): `uploadProgress` events follow. */
  uploadFiles: request<UploadResultView>()(
    z.strictObject({
      environment: environmentNameSchema,
      files: z.array(fileRefSchema).min(1).max(500),
      /** Lets `cancelWork` abort the uploads under way (a file not finished is not kept). */
      workId: workIdSchema.optional(),
    }),
  ),
  /**
   * Saves every artifact of a run into a folder the app chooses (the desktop app asks with its
   * own folder dialog; a browser gets the Downloads folder): `downloadProgress` events follow.
   */
  downloadRun: request<DownloadResultView | null>()(
    z.strictObject({ environment: environmentNameSchema, runId: z.string().min(1).max(256) }),
  ),
}
