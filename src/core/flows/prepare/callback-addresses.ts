/**
 * The address a template run asks the service to call when it ends: checked by the shared rule
 * (src/shared/callback-address.ts) wherever one comes in, and the last one asked for remembered
 * per environment and template, in the settings table, so the New run screen offers it again.
 */
import type { RunTarget } from '../../../shared/run-target'
import { callbackAddressProblem } from '../../../shared/callback-address'
import { EngineError } from '../../errors'
import type { Db } from '../../storage/db'
import { SettingsTable } from '../../storage/tables/settings'

/** The address trimmed, undefined for none; a bad one is refused in the shared rule's words. */
export function checkedCallbackUrl(text: string | undefined): string | undefined {
  const address = text?.trim() ?? ''
  const problem = callbackAddressProblem(address)
  if (problem)
    throw new EngineError('bad-input', problem.message, problem.nextStep, {
      fields: { callbackUrl: problem.message },
    })
  return address || undefined
}

/** A template target with its address checked (a listing has none). */
export function withCheckedCallback<
  T extends { kind: 'template'; callbackUrl?: string | undefined } | { kind: 'listing' },
>(target: T): T {
  if (target.kind !== 'template') return target
  return { ...target, callbackUrl: checkedCallbackUrl(target.callbackUrl) }
}

export class CallbackAddresses {
  private readonly table: SettingsTable

  constructor(db: Db) {
    this.table = new SettingsTable(db)
  }

  private key(historyKey: string, templateId: string): string {
    return JSON.stringify(['callbackUrl', historyKey, templateId])
  }

  /** The address last asked for with this template here; '' when none (or no longer taken). */
  forTemplate(historyKey: string, templateId: string): string {
    const kept = this.table.get(this.key(historyKey, templateId)) ?? ''
    return callbackAddressProblem(kept) ? '' : kept
  }

  /**
   * The address a New run asks for, checked before anything else, and kept (or its absence) for
   * the template's next run here. Listings have no such address.
   */
  rememberAsked(historyKey: string, target: RunTarget, text: string | undefined) {
    if (target.kind === 'template') {
      this.remember(historyKey, target.templateId, checkedCallbackUrl(text))
    } else if (text?.trim()) {
      throw new EngineError(
        'bad-input',
        'A marketplace listing cannot be asked to call an address when its run ends; only an official template can.',
        'Leave the address out for a listing.',
      )
    }
  }

  /** Keeps the address for the next run of the template here; none forgets it. */
  private remember(historyKey: string, templateId: string, address: string | undefined) {
    this.table.set(this.key(historyKey, templateId), address || null)
  }
}
