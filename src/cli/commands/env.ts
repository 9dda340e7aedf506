/**
 * `env add`, `env list`, `env remove`, `env use`, `env limit` and `env rows` as --help and completion read them (name,
 * usage, options). What they do is in actions/env.ts, loaded only when one of them runs.
 */
import { commandGroup, one } from '../command'
import { VALUE, SWITCH } from '../flags'

export const { envAdd, envList, envRemove, envUse, envLimit, envRows } = commandGroup(
  () => import('../actions/env'),
  {
    envAdd: {
      name: 'env add',
      summary:
        'Save an environment; with --token-stdin its token is read from stdin into the keychain.',
      usage: 'env add NAME --base-url URL [--token-stdin]',
      options: { 'token-stdin': SWITCH, 'unit-label': VALUE },
      positionals: one('a NAME'),
    },

    envList: {
      name: 'env list',
      summary: 'List the saved environments (* marks the default).',
      usage: 'env list',
    },

    envRemove: {
      name: 'env remove',
      summary: 'Remove a saved environment and, when no other one uses its address, its token.',
      usage: 'env remove NAME',
      positionals: one('a NAME'),
    },

    envUse: {
      name: 'env use',
      summary: 'Make an environment the default.',
      usage: 'env use NAME',
      positionals: one('a NAME'),
    },

    envLimit: {
      name: 'env limit',
      summary:
        'Show or set the monthly spending limit kept on this computer: every paid command refuses a send that would pass it.',
      usage: 'env limit NAME [N|off]',
      positionals: { min: 1, max: 2, names: 'a NAME and a limit N or off' },
    },

    envRows: {
      name: 'env rows',
      summary:
        'Show or set the most rows one request to the service may carry: a sheet with more goes as parts, each a run of one batch, under one confirmation. auto: learnt from the service when it refuses more.',
      usage: 'env rows NAME [N|auto]',
      positionals: { min: 1, max: 2, names: 'a NAME and a number of rows N or auto' },
    },
  },
)
