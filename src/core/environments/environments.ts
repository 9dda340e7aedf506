/**
 * Saved environments: a name, a base URL and the label of its amounts, kept in the history
 * database (never with a token: tokens live in the SecretStore, keyed by origin). The built-in
 * Sandbox is always there and cannot be removed; it is the default until the user picks another.
 */
import { checkBaseUrl } from '../../shared/contract/base-url'
import { EngineError } from '../errors'
import type { Db } from '../storage/db'
import { EnvironmentsTable } from '../storage/tables/environments'
import { SettingsTable } from '../storage/tables/settings'

export const BUILTIN_SANDBOX = 'Sandbox'
/** The history key of the built-in Sandbox (see Connection.historyKey). */
export const BUILTIN_HISTORY_KEY = 'builtin:sandbox'
const DEFAULT_KEY = 'defaultEnvironment'
/** The built-in Sandbox has no row of its own: its unit label is a setting. */
const BUILTIN_UNIT_KEY = 'builtinUnitLabel'
const NAME = /^[\p{L}\p{N} ._-]{1,64}$/u

export interface SavedEnvironment {
  name: string
  /** Empty for the built-in Sandbox until it runs (its address is chosen at start). */
  baseUrl: string
  builtIn: boolean
  unitLabel: string
}

/** Checks and normalises a service address: http(s), no credentials, no query, no trailing slash. */
export function normaliseBaseUrl(value: string): string {
  const check = checkBaseUrl(value)
  if (!check.ok) {
    throw new EngineError(
      'bad-input',
      check.reason,
      'Enter the service address, starting with https:// (for example https://skills.example.com).',
      { fields: { baseUrl: check.reason } },
    )
  }
  return (check.url.origin + check.url.pathname).replace(/\/+$/, '')
}

export class Environments {
  private readonly table: EnvironmentsTable
  private readonly settings: SettingsTable

  constructor(db: Db) {
    this.table = new EnvironmentsTable(db)
    this.settings = new SettingsTable(db)
  }

  list(): SavedEnvironment[] {
    return [
      {
        name: BUILTIN_SANDBOX,
        baseUrl: '',
        builtIn: true,
        unitLabel: this.settings.get(BUILTIN_UNIT_KEY) || 'credits',
      },
      ...this.table.list().map((saved) => ({
        name: saved.name,
        baseUrl: saved.baseUrl,
        builtIn: false,
        unitLabel: saved.unitLabel,
      })),
    ]
  }

  find(name: string): SavedEnvironment | undefined {
    const wanted = name.trim().toLowerCase()
    return this.list().find((e) => e.name.toLowerCase() === wanted)
  }

  get(name: string): SavedEnvironment {
    const found = this.find(name)
    if (!found) {
      throw new EngineError(
        'not-found',
        `There is no environment called “${name}”.`,
        'See the saved environments with `skill-runner env list` (or in the sidebar), or add one.',
      )
    }
    return found
  }

  add(input: { name: string; baseUrl: string; unitLabel?: string }): SavedEnvironment {
    const name = input.name.trim()
    if (!NAME.test(name)) {
      throw new EngineError(
        'bad-input',
        `“${input.name}” cannot be used as an environment name.`,
        'Use up to 64 letters, digits, spaces, dots, dashes or underscores.',
        { fields: { name: 'Use letters, digits, spaces, dots, dashes or underscores' } },
      )
    }
    if (this.find(name)) {
      throw new EngineError(
        'conflict',
        `An environment called “${name}” already exists.`,
        'Choose another name, or remove the existing one first.',
        { fields: { name: 'This name is already used' } },
      )
    }
    const baseUrl = normaliseBaseUrl(input.baseUrl)
    const unitLabel = input.unitLabel?.trim() || 'credits'
    this.table.insert({ name, baseUrl, unitLabel }, Date.now())
    return { name, baseUrl, builtIn: false, unitLabel }
  }

  remove(name: string): SavedEnvironment {
    const env = this.get(name)
    if (env.builtIn) {
      throw new EngineError(
        'refused',
        'The built-in Sandbox cannot be removed.',
        'Pick another environment as the default instead.',
      )
    }
    this.table.delete(env.name)
    if (this.defaultName() === env.name) this.settings.set(DEFAULT_KEY, null)
    return env
  }

  defaultName(): string {
    const saved = this.settings.get(DEFAULT_KEY)
    return saved && this.find(saved) ? this.find(saved)!.name : BUILTIN_SANDBOX
  }

  setDefault(name: string) {
    this.settings.set(DEFAULT_KEY, this.get(name).name)
  }

  /** The label shown after an environment's amounts ("credits"); amounts are never converted. */
  setUnitLabel(name: string, unitLabel: string) {
    const env = this.get(name)
    const label = unitLabel.trim()
    if (!label || label.length > 32)
      throw new EngineError(
        'bad-input',
        'A unit label has 1 to 32 characters.',
        'Type a short name for the unit, e.g. credits.',
        { fields: { unitLabel: 'Use 1 to 32 characters' } },
      )
    if (env.builtIn) this.settings.set(BUILTIN_UNIT_KEY, label)
    else this.table.setUnitLabel(env.name, label)
  }
}
