/**
 * What a run is sent to: an official template, or a marketplace listing at one version. One
 * type on every layer, from the New run screen to the journal. What only some sends carry is
 * optional: the address a template run asks the service to call when it ends, and a listing's
 * fee per task once a plan has read it (null: the service does not show it to this buyer).
 * Where only which target matters, those are simply absent.
 */
import type { AmountT } from './format/amounts'
export type RunTarget =
  | { kind: 'template'; templateId: string; callbackUrl?: string | undefined }
  | {
      kind: 'listing'
      listingId: string
      listingVersionId: string
      taskFixedFeeT?: AmountT | null | undefined
    }

/** Which template or listing alone, without what a send adds (the callback address, the fee). */
export function targetIdentity(target: RunTarget): RunTarget {
  return target.kind === 'template'
    ? { kind: 'template', templateId: target.templateId }
    : { kind: 'listing', listingId: target.listingId, listingVersionId: target.listingVersionId }
}
