// @vitest-environment happy-dom
// The workshop's words stay under Details: the keychain's install command, the interface version
// a service runs, and the command line's flags are folded away on the buyer's screens.
import { describe, expect, it } from 'vitest'
import { ConnectionCheck } from '../../src/renderer/components/ConnectionCheck'
import { TokenDialog } from '../../src/renderer/components/TokenDialog'
import { SettingsScreen } from '../../src/renderer/screens/SettingsScreen'
import type { ConnectionReport, SettingsView } from '../../src/shared/bridge'
import { environment } from '../helpers/run-fixtures'
import { buttonNamed, click, render } from './harness'

const env = environment({ name: 'Sandbox' })

/** What the screen shows unfolded: its text outside the bodies of <details>. */
function unfoldedText(container: HTMLElement): string {
  const copy = container.cloneNode(true) as HTMLElement
  for (const body of copy.querySelectorAll('details > :not(summary)')) body.remove()
  return copy.textContent ?? ''
}

/** The text under Details. */
function foldedText(container: HTMLElement): string {
  return [...container.querySelectorAll('details')].map((d) => d.textContent).join(' ')
}

/** A connection check's answer with these steps, the token kept in a keychain. */
function checked(ok: boolean, steps: ConnectionReport['steps']): ConnectionReport {
  const secretStore = {
    kind: 'keychain',
    description: 'the keychain',
    canSaveTokens: true,
    advice: '',
  } as const
  return { environment: 'Sandbox', ok, secretStore, steps }
}

describe('a buyer’s words', () => {
  it('Settings names no flag of the command line outside Details', async () => {
    const settings: SettingsView = {
      outputsFolder: '/home/ann/Skill Runner',
      defaultOutputsFolder: '/home/ann/Skill Runner',
      notifications: true,
      downloadConcurrency: 8,
      theme: 'system',
      autoSaveOutputs: true,
    }
    const h = await render(() => <SettingsScreen env={env} />, {
      getSettings: async () => settings,
    })
    await h.stores.settings.getState().load()
    await h.settle()
    expect(h.text()).toContain('Keep outputs')
    expect(unfoldedText(h.container)).not.toMatch(/-o option|--watch/)
    expect(foldedText(h.container)).toMatch(/-o option/)
    expect(foldedText(h.container)).toMatch(/--watch/)
  })

  it('the connection check says the kind of service; its version is under Details', async () => {
    const report = checked(true, [
      {
        step: 'healthz',
        title: 'Service reachable',
        ok: true,
        status: 200,
        message: 'The service answered.',
        skipped: false,
      },
      {
        step: 'version',
        title: 'Interface version',
        ok: true,
        status: 200,
        message: 'It runs version market-v1.',
        skipped: false,
        body: { version: 'market-v1' },
      },
      {
        step: 'auth',
        title: 'Token accepted',
        ok: true,
        status: 200,
        message: 'The service accepted the token.',
        skipped: false,
      },
    ])
    const h = await render(() => <ConnectionCheck env={env} />, {
      checkConnection: async () => report,
    })
    await click(buttonNamed(h.container, 'Check connection'))
    await h.settle()
    const shown = unfoldedText(h.container)
    expect(shown).toContain('It is the kind of service this app works with.')
    expect(shown).not.toMatch(/market-v1|interface version|service version/i)
    expect(foldedText(h.container)).toContain('market-v1')
  })

  it('the token step says a token is missing, not refused, when none was given', async () => {
    const report = checked(false, [
      {
        step: 'auth',
        title: 'Token accepted',
        ok: false,
        status: 401,
        message: 'The service asks for a token, and this environment has none yet. Set one.',
        skipped: false,
        noToken: true,
      },
    ])
    const h = await render(() => <ConnectionCheck env={env} />, {
      checkConnection: async () => report,
    })
    await click(buttonNamed(h.container, 'Check connection'))
    await h.settle()
    expect(h.text()).toContain('this environment has none yet')
    expect(h.text()).not.toContain('did not accept')
  })

  it('the token dialog says what keychain to install; the command is under Details', async () => {
    const h = await render((stores) => {
      stores.app.setState({
        info: {
          name: 'Skill Runner',
          version: '1.0.0',
          shell: 'browser',
          platform: 'linux',
          tokenNote: 'No keychain on this computer: a token is kept for this session only.',
          secretStore: {
            kind: 'memory',
            description: 'no keychain',
            canSaveTokens: false,
            advice: 'Install a keychain (GNOME Keyring or KWallet), then sign out and in again.',
            command: 'sudo apt install gnome-keyring libsecret-1-0',
          },
        },
      })
      return <TokenDialog env={env} onClose={() => {}} />
    }, {})
    const shown = unfoldedText(document.body)
    expect(shown).toContain('GNOME Keyring or KWallet')
    expect(shown).not.toMatch(/apt install/)
    expect(foldedText(document.body)).toContain('sudo apt install gnome-keyring')
    h.unmount()
  })
})
