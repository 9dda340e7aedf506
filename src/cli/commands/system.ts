/**
 * `doctor` and `sandbox` as --help and completion read them (name, usage, options). What they do
 * is in actions/system.ts, loaded only when one of them runs.
 */
import { commandGroup } from '../command'
import { VALUE } from '../flags'

export const { doctor, sandbox } = commandGroup(() => import('../actions/system'), {
  doctor: {
    name: 'doctor',
    summary:
      'Check the connection: /healthz, /version, then an authenticated call (/svc/v1/models).',
    usage: 'doctor [--base-url URL | --env NAME] [--json]',
  },

  sandbox: {
    name: 'sandbox',
    summary:
      'Run the local sandbox service in the foreground (Ctrl-C stops it). A row with [[fail]] in a value fails; one with [[stall]] stays running for an hour (a stalled run).',
    usage:
      'sandbox [--host 127.0.0.1] [--port N] [--token T]... [--db FILE] [--seed FILE] [--task-ms N] [--latency-ms N] [--url-ttl-ms N] [--max-rows N]',
    options: {
      host: VALUE,
      port: VALUE,
      token: { type: 'string', multiple: true },
      db: VALUE,
      seed: VALUE,
      'task-ms': VALUE,
      'latency-ms': VALUE,
      'url-ttl-ms': VALUE,
      'max-rows': VALUE,
    },
  },
})
