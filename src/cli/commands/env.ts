/**
 * `env add`, `env list`, `env remove` and `env use` as --help and completion read them (name,
 * usage, options). What they do is in actions/env.ts, loaded only when one of them runs.
 */
import { runFrom, type Command } from '../command'

const actions = () => import('../actions/env')

export const envAdd: Command = {
  name: 'env add',
  summary:
    'Save an environment; with --token-stdin its token is read from stdin into the keychain.',
  usage: 'env add NAME --base-url URL [--token-stdin]',
  options: { 'token-stdin': { type: 'boolean' }, 'unit-label': { type: 'string' } },
  positionals: { min: 1, max: 1, names: 'a NAME' },
  run: runFrom(actions, 'envAdd'),
}

export const envList: Command = {
  name: 'env list',
  summary: 'List the saved environments (* marks the default).',
  usage: 'env list',
  run: runFrom(actions, 'envList'),
}

export const envRemove: Command = {
  name: 'env remove',
  summary: 'Remove a saved environment and, when no other one uses its address, its token.',
  usage: 'env remove NAME',
  positionals: { min: 1, max: 1, names: 'a NAME' },
  run: runFrom(actions, 'envRemove'),
}

export const envUse: Command = {
  name: 'env use',
  summary: 'Make an environment the default.',
  usage: 'env use NAME',
  positionals: { min: 1, max: 1, names: 'a NAME' },
  run: runFrom(actions, 'envUse'),
}
