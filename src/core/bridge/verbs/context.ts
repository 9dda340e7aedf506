/**
 * What every group of Bridge verbs works with: the engine (the verbs call its flows directly),
 * the shell's dialogs, the event pipe, the run runWatch, the settings and the kept workbook checks.
 */
import type { BridgeHandlers, EnvironmentList } from '../../../shared/bridge'
import type { Engine } from '../../engine'
import type { Settings } from '../../storage/settings'
import type { RunWatch } from '../run-watch'
import type { BridgeServiceOptions, Emit, ShellDialogs } from '../types'
import type { WorkbookChecks } from '../workbook-checks'

export interface VerbContext {
  engine: Engine
  options: BridgeServiceOptions
  dialogs: ShellDialogs
  emit: Emit
  runWatch: RunWatch
  settings: Settings
  checks: WorkbookChecks
  /** The environment shown as the default in this session until the user picks one (opensOn). */
  sessionDefault: { name: string | null }
  /** Every environment as the page sees it. */
  environments(): Promise<EnvironmentList>
  /** The environments again, pushed as environmentsChanged, after a change. */
  changed(): Promise<EnvironmentList>
}

/** Some of the Bridge's verbs. */
export type Verbs<K extends keyof BridgeHandlers> = Pick<BridgeHandlers, K>
