import type { RunSummary } from '../../shared/contract'
import { runWords } from '../runs/run-view'

/**
 * The run the buyer typed or picked: by the name the runs list shows it under (case aside), by
 * a part of that name only one run has, or by its id; '' when none or several fit.
 */
export function runNamed(runs: readonly RunSummary[], typed: string): string {
  const words = typed.trim().toLocaleLowerCase()
  if (!words) return ''
  const byId = runs.find((r) => r.runId === typed.trim())
  if (byId) return byId.runId
  const named = runs.map((r) => ({ id: r.runId, name: runWords(r).toLocaleLowerCase() }))
  const exact = named.filter((r) => r.name === words)
  const fits = exact.length > 0 ? exact : named.filter((r) => r.name.includes(words))
  return fits.length === 1 ? fits[0]!.id : ''
}
