/**
 * `web` as --help and completion read it (name, usage, options). What it does is in
 * actions/browser.ts, loaded only when it runs.
 */
import { commandGroup } from '../command'
import { VALUE } from '../flags'

export const { web } = commandGroup(() => import('../actions/browser'), {
  web: {
    name: 'web',
    summary:
      'Serve the app to a browser on this computer (127.0.0.1); prints the address to open. With --env or --base-url it opens on that environment.',
    usage: 'web [--host 127.0.0.1] [--port N] [--env NAME | --base-url URL]',
    options: { host: VALUE, port: VALUE },
  },
})
