// The IPC wrapper's checks: who may call (the app's own window, main frame, app origin) and
// what (arguments valid for the contract). Electron's ipcMain is replaced by a stand-in with
// the same shape; the dispatcher and contract are the real ones.
import { describe, expect, it } from 'vitest'
import {
  broadcastEvent,
  registerBridge,
  senderProblem,
  type InvokeEventLike,
  type IpcMainLike,
} from '../../src/main/ipc'
import { APP_ORIGIN } from '../../src/main/security'
import {
  createDispatch,
  ipcRequestChannel,
  requestNames,
  type BridgeHandlers,
  type BridgeResult,
} from '../../src/shared/bridge'

function fakeIpcMain() {
  const handlers = new Map<
    string,
    (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>
  >()
  const ipc: IpcMainLike = {
    handle: (channel, listener) => void handlers.set(channel, listener),
    removeHandler: (channel) => void handlers.delete(channel),
  }
  return { ipc, handlers }
}

/** Handlers that record what reached them. */
function recordingHandlers() {
  const seen: Array<{ verb: string; args: unknown }> = []
  const handlers = new Proxy({} as BridgeHandlers, {
    get: (_target, verb: string) => async (args: unknown) => {
      seen.push({ verb, args })
      return verb === 'listEnvironments' ? { items: [] } : null
    },
  })
  return { handlers, seen }
}

const mainFrame = { url: `${APP_ORIGIN}/index.html`, parent: null }
const goodEvent: InvokeEventLike = { sender: { id: 7, mainFrame }, senderFrame: mainFrame }

function setup() {
  const { ipc, handlers: registered } = fakeIpcMain()
  const { handlers, seen } = recordingHandlers()
  const refused: string[] = []
  const dispose = registerBridge({
    ipc,
    dispatch: createDispatch(handlers),
    policy: { isKnownWebContents: (id) => id === 7, allowedOrigins: [APP_ORIGIN] },
    onRefused: (verb, reason) => refused.push(`${verb}: ${reason}`),
  })
  const call = async (verb: string, event: InvokeEventLike, ...args: unknown[]) => {
    const handler = registered.get(`bridge:${verb}`)
    if (!handler) throw new Error(`no handler for ${verb}`)
    return (await handler(event, ...args)) as BridgeResult<unknown>
  }
  return { registered, seen, refused, call, dispose }
}

describe('registerBridge: the sender', () => {
  it('registers one channel per verb of the contract, and removes them all', () => {
    const { registered, dispose } = setup()
    expect([...registered.keys()].sort()).toEqual(
      requestNames.map((n) => ipcRequestChannel(n)).sort(),
    )
    dispose()
    expect(registered.size).toBe(0)
  })

  it('answers the app’s own window', async () => {
    const { call, seen } = setup()
    expect(await call('listEnvironments', goodEvent, {})).toEqual({
      ok: true,
      value: { items: [] },
    })
    expect(seen).toEqual([{ verb: 'listEnvironments', args: {} }])
  })

  const refusedSenders: Array<[string, InvokeEventLike]> = [
    ['a window the app did not create', { sender: { id: 99, mainFrame }, senderFrame: mainFrame }],
    [
      'a sub-frame',
      { sender: { id: 7, mainFrame }, senderFrame: { url: `${APP_ORIGIN}/x`, parent: mainFrame } },
    ],
    [
      'a frame that is not the main frame',
      {
        sender: { id: 7, mainFrame },
        senderFrame: { url: `${APP_ORIGIN}/index.html`, parent: null },
      },
    ],
    [
      'a page from another origin',
      {
        sender: { id: 7, mainFrame: { url: 'https://evil.example/', parent: null } },
        senderFrame: { url: 'https://evil.example/', parent: null },
      },
    ],
    ['a frame that is gone', { sender: { id: 7, mainFrame }, senderFrame: null }],
  ]
  for (const [label, event] of refusedSenders) {
    it(`refuses ${label} before looking at the arguments`, async () => {
      const { call, seen, refused } = setup()
      const result = await call('addEnvironment', event, { name: 'x', baseUrl: 'nonsense' })
      expect(result).toMatchObject({ ok: false, error: { code: 'forbidden' } })
      expect(seen).toEqual([])
      expect(refused).toHaveLength(1)
    })
  }
})

describe('registerBridge: the arguments', () => {
  it('refuses arguments that do not match the contract, naming the field', async () => {
    const { call, seen } = setup()
    const result = await call('addEnvironment', goodEvent, {
      name: 'Prod',
      baseUrl: 'ftp://x.example',
    })
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } })
    if (result.ok) throw new Error('expected a refusal')
    expect(result.error.fields?.baseUrl).toMatch(/https:\/\//)
    expect(seen).toEqual([])
  })

  it('refuses unexpected keys, wrong types, and extra positional arguments', async () => {
    const { call, seen } = setup()
    expect(await call('listEnvironments', goodEvent, { sneaky: true })).toMatchObject({ ok: false })
    expect(
      await call('listRuns', goodEvent, { environment: 'Sandbox', pageSize: 'all' }),
    ).toMatchObject({ ok: false })
    expect(
      await call('listRuns', goodEvent, { environment: 'Sandbox', pageSize: 5000 }),
    ).toMatchObject({ ok: false })
    expect(await call('listEnvironments', goodEvent, {}, {})).toMatchObject({ ok: false })
    expect(
      await call('describeFile', goodEvent, { file: { kind: 'url', url: 'x' } }),
    ).toMatchObject({ ok: false })
    expect(seen).toEqual([])
  })

  it('passes parsed arguments on (trimmed, as the schema reads them)', async () => {
    const { call, seen } = setup()
    const result = await call('addEnvironment', goodEvent, {
      name: '  Production ',
      baseUrl: 'https://skills.example.com',
      token: ' tok-123 ',
    })
    expect(result.ok).toBe(true)
    expect(seen).toEqual([
      {
        verb: 'addEnvironment',
        args: { name: 'Production', baseUrl: 'https://skills.example.com', token: 'tok-123' },
      },
    ])
  })
})

describe('senderProblem', () => {
  it('explains each refusal', () => {
    const policy = { isKnownWebContents: (id: number) => id === 1, allowedOrigins: [APP_ORIGIN] }
    expect(senderProblem({ sender: { id: 1 }, senderFrame: mainFrame }, policy)).toBeNull()
    expect(senderProblem({ sender: { id: 2 }, senderFrame: mainFrame }, policy)).toBe(
      'unknown window',
    )
    expect(
      senderProblem(
        { sender: { id: 1 }, senderFrame: { url: 'app://skill-runner.evil/', parent: null } },
        policy,
      ),
    ).toMatch(/foreign origin/)
  })
})

describe('broadcastEvent', () => {
  it('sends to every live window and skips closed ones', () => {
    const sent: string[] = []
    const live = {
      isDestroyed: () => false,
      send: (channel: string) => void sent.push(`live ${channel}`),
    }
    const closed = {
      isDestroyed: () => true,
      send: (channel: string) => void sent.push(`closed ${channel}`),
    }
    broadcastEvent([live, closed], 'activity', { activeRuns: 1, doneTasks: 1, totalTasks: 4 })
    expect(sent).toEqual(['live bridge-event:activity'])
  })
})
