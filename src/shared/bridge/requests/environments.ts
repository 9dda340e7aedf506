/** The verbs of the environments and connection screens (and the unit label of amounts). */
import * as z from 'zod'
import { checkBaseUrl } from '../../contract'
import type { AppInfo, ConnectionReport, EnvironmentList } from '../views/environments'
import { noArgs, environmentNameSchema, request } from './arguments'

export const baseUrlSchema = z
  .string()
  .trim()
  .max(2048)
  .superRefine((value, ctx) => {
    const check = checkBaseUrl(value)
    if (!check.ok) ctx.addIssue({ code: 'custom', message: check.reason })
  })

export const tokenSchema = z
  .string()
  .trim()
  .min(1, 'Paste the API token, or leave the field empty.')
  .max(8192, 'That token is too long to be an API token.')
  .regex(/^[\x21-\x7e]+$/, 'A token has no spaces or special characters; paste it again.')

/** Where a token given now is kept: saved (keychain), or for this session only. */
const tokenKeepingSchema = z.enum(['saved', 'session'])

export const environmentRequests = {
  getAppInfo: request<AppInfo>()(noArgs),
  listEnvironments: request<EnvironmentList>()(noArgs),
  addEnvironment: request<EnvironmentList>()(
    z.strictObject({
      name: environmentNameSchema,
      baseUrl: baseUrlSchema,
      /** Goes straight to the engine's SecretStore; never sent back. */
      token: tokenSchema.optional(),
      /** 'session': held in the engine's memory only, gone when it closes. */
      keeping: tokenKeepingSchema.optional(),
    }),
  ),
  removeEnvironment: request<EnvironmentList>()(z.strictObject({ name: environmentNameSchema })),
  useEnvironment: request<EnvironmentList>()(z.strictObject({ name: environmentNameSchema })),
  setToken: request<EnvironmentList>()(
    z.strictObject({
      name: environmentNameSchema,
      token: tokenSchema,
      keeping: tokenKeepingSchema.optional(),
    }),
  ),
  checkConnection: request<ConnectionReport>()(
    z.strictObject({ environment: environmentNameSchema }),
  ),
  /** The label of an environment's amounts (e.g. "credits"); amounts are never converted. */
  setUnitLabel: request<EnvironmentList>()(
    z.strictObject({
      environment: environmentNameSchema,
      unitLabel: z
        .string()
        .trim()
        .min(1, 'Give the unit a name, e.g. credits.')
        .max(32, 'Use at most 32 characters.'),
    }),
  ),
}
