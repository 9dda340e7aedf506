/**
 * Plans waiting for the user's confirmation (see plan-submission.ts), kept by id for a bounded time and a
 * bounded count, oldest dropped first. A plan's scratch folder (a browser's bytes written to
 * disk) and the spill file of its rows (plan-rows.ts) are removed when the plan goes.
 */
import { rmSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { EngineError } from '../../errors'

/** What the store needs of a plan. */
export interface StoredPlan {
  id: string
  expiresAtMs: number
  scratch?: string | undefined
  rows?: { spillPath?: string | undefined }
}

export const PLAN_TTL_MS = 30 * 60_000
export const MAX_PLANS = 32

/** Plans kept by id for a bounded time and count (oldest dropped first). */
export class PlanStore<P extends StoredPlan> {
  private readonly plans = new Map<string, P>()
  /** Scratch folders being removed: dropping a plan does not wait for the disk. */
  private readonly removals = new Set<Promise<void>>()

  constructor(
    private readonly ttlMs = PLAN_TTL_MS,
    private readonly max = MAX_PLANS,
    private readonly now: () => number = Date.now,
    /** What every plan gets on its way in (the engine's: the parts it goes as). */
    private readonly complete: (plan: P) => P = (plan) => plan,
  ) {}

  add(given: P): P {
    const plan = this.complete(given)
    this.sweep()
    while (this.plans.size >= this.max) {
      const oldest = this.plans.keys().next().value
      if (oldest === undefined) break
      this.drop(oldest)
    }
    this.plans.set(plan.id, plan)
    return plan
  }

  get(id: string): P {
    this.sweep()
    const plan = this.plans.get(id)
    if (!plan) {
      throw new EngineError(
        'not-found',
        'This confirmation has expired or was already used, so nothing was sent.',
        'Check the workbook again to see the cost, then confirm.',
      )
    }
    return plan
  }

  drop(id: string) {
    const plan = this.plans.get(id)
    if (!plan) return
    this.plans.delete(id)
    if (plan.scratch) this.removeScratch(plan.scratch)
    // At once: a command line may end as soon as its plan is sent.
    if (plan.rows?.spillPath) rmSync(plan.rows.spillPath, { force: true })
  }

  /** Resolves once every scratch folder of a plan dropped so far is gone from disk. */
  async scratchRemoved(): Promise<void> {
    await Promise.all(this.removals)
  }

  clear() {
    for (const id of [...this.plans.keys()]) this.drop(id)
  }

  private removeScratch(folder: string) {
    const removal = rm(folder, { recursive: true, force: true }).catch(() => {})
    this.removals.add(removal)
    void removal.then(() => this.removals.delete(removal))
  }

  private sweep() {
    const now = this.now()
    for (const [id, plan] of this.plans) if (plan.expiresAtMs <= now) this.drop(id)
  }

  /** For a plan made now. */
  expiry(): { createdAtMs: number; expiresAtMs: number } {
    const createdAtMs = this.now()
    return { createdAtMs, expiresAtMs: createdAtMs + this.ttlMs }
  }
}
