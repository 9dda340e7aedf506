/**
 * What every group of Bridge verbs works with: the engine's services the group uses (the verbs call
 * the flows directly; a group names what it needs, e.g. `VerbContext<Connects & CompareServices>`,
 * and the engine has it all), the shell's dialogs, the event pipe, the run watch, the settings
 * and the kept workbook checks.
 */
import type { BridgeHandlers, EnvironmentList } from '../../../shared/bridge'
import type { Engine } from '../../engine'
import type { Settings } from '../../storage/settings'
import type { RunWatch } from '../run-watch'
import type { BridgeServiceOptions, Emit, ShellDialogs } from '../types'
import type { WorkbookChecks } from '../workbook-checks'

export interface VerbContext<Uses> {
  engine: Uses
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

/** A connection to an environment by its name: what almost every verb starts with. */
export type Connects = Pick<Engine, 'connect'>

/** Some of the Bridge's verbs. */
export type Verbs<K extends keyof BridgeHandlers> = Pick<BridgeHandlers, K>
