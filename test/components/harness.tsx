// Renders one screen of the app in happy-dom with real stores over a fake Bridge: each test
// gives the verbs it needs (anything else rejects, so a test sees what a screen asks for).
import { act } from 'react'
import { onTestFinished } from 'vitest'
import { createRoot, type Root } from 'react-dom/client'
import type { ReactNode } from 'react'
import {
  BridgeError,
  type BridgeApi,
  type BridgeErrorCode,
  type BridgeEventName,
} from '../../src/shared/bridge'
import { StoresContext, type Stores } from '../../src/renderer/stores/context'
import { createStores } from '../../src/renderer/stores/create-stores'
import { until } from '../helpers/wait'

// happy-dom lays nothing out: give the scrolling regions of the virtualized tables a window's
// size, so they render the rows a user would see (and only those). Done on each render, since
// test files may share a worker and each gets a window (and an HTMLElement) of its own.
const laidOut = new WeakSet<object>()
export function layOutRegions() {
  const proto = HTMLElement.prototype
  if (laidOut.has(proto)) return
  laidOut.add(proto)
  const realRect = proto.getBoundingClientRect
  proto.getBoundingClientRect = function (this: HTMLElement) {
    if (this.getAttribute('role') === 'region')
      return {
        x: 0,
        y: 0,
        top: 0,
        left: 0,
        right: 1000,
        bottom: 600,
        width: 1000,
        height: 600,
        toJSON: () => ({}),
      } as DOMRect
    return realRect.call(this)
  }
  const sizes = { offsetHeight: 600, clientHeight: 600, offsetWidth: 1000, clientWidth: 1000 }
  for (const [key, size] of Object.entries(sizes))
    Object.defineProperty(proto, key, {
      configurable: true,
      get(this: HTMLElement) {
        return this.getAttribute('role') === 'region' ? size : 0
      },
    })
}

// React's act() needs to know it runs in a test.
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

export type FakeVerbs = Partial<Record<keyof BridgeApi, (args: never) => Promise<unknown>>>

export interface Harness {
  stores: Stores
  calls: { verb: string; args: unknown }[]
  container: HTMLElement
  text(): string
  /** Lets pending promises and effects settle. */
  settle(): Promise<void>
  /** Settles again and again until `test()` holds (a timer of the screen's own has fired). */
  settleUntil(test: () => boolean): Promise<void>
  unmount(): void
}

export function fakeApi(verbs: FakeVerbs, calls: { verb: string; args: unknown }[]): BridgeApi {
  return new Proxy({} as BridgeApi, {
    get(_target, name: string) {
      if (name === 'on') return (_event: BridgeEventName, _listener: unknown) => () => {}
      if (name === 'then') return undefined
      return (args: unknown) => {
        calls.push({ verb: name, args })
        const verb = verbs[name as keyof BridgeApi]
        if (!verb) return Promise.reject(bridgeError('internal', `No fake for ${name}.`))
        return verb(args as never)
      }
    },
  })
}

export function bridgeError(code: BridgeErrorCode, message: string, nextStep = 'Try again.') {
  return new BridgeError({ code, message, nextStep })
}

/** A promise that never settles: a screen that is still loading. */
export function pending<T>(): Promise<T> {
  return new Promise<T>(() => {})
}

export async function render(
  node: (stores: Stores) => ReactNode,
  verbs: FakeVerbs,
  shell: 'browser' | 'electron' = 'browser',
): Promise<Harness> {
  layOutRegions()
  const calls: { verb: string; args: unknown }[] = []
  const api = fakeApi(verbs, calls)
  const stores = createStores(
    { api, shell, pathForFile: () => '', onConnectionChange: () => () => {} },
    {
      toFileRef: async () => {
        throw new Error('No files in these tests.')
      },
      download: () => {},
    },
  )
  const container = document.createElement('div')
  document.body.appendChild(container)
  let root: Root
  await act(async () => {
    root = createRoot(container)
    root.render(<StoresContext.Provider value={stores}>{node(stores)}</StoresContext.Provider>)
  })
  const settle = async () => {
    await act(async () => {
      await new Promise((r) => setTimeout(r, 0))
    })
    // A screen loaded on demand (components/on-demand.tsx) shows its fallback until its code came.
    for (let i = 0; i < 200 && container.querySelector('[data-on-demand]'); i++) {
      await act(async () => {
        await new Promise((r) => setTimeout(r, 10))
      })
    }
  }
  await settle()
  let mounted = true
  const unmount = () => {
    if (!mounted) return
    mounted = false
    act(() => root.unmount())
    container.remove()
  }
  // Gone when the test ends, passed or failed, so no test has to remember it.
  onTestFinished(unmount)
  const settleUntil = (test: () => boolean) => until(async () => (await settle(), test()))
  const text = () => container.textContent ?? ''
  return { stores, calls, container, text, settle, settleUntil, unmount }
}

/** Types into an input the way React sees it (the value setter, then an input event). */
export async function typeInto(input: HTMLInputElement, value: string) {
  await act(async () => {
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!
    setter.call(input, value)
    input.dispatchEvent(new Event('input', { bubbles: true }))
  })
}

export async function click(element: Element) {
  await act(async () => {
    ;(element as HTMLElement).click()
  })
}

export function byLabel(container: HTMLElement, label: string): HTMLInputElement {
  const labels = [...container.querySelectorAll('label')]
  const found = labels.find((l) => l.textContent?.trim() === label)
  if (!found) throw new Error(`No label “${label}”`)
  const id = found.getAttribute('for')
  const input = id ? container.ownerDocument.getElementById(id) : found.querySelector('input')
  if (!input) throw new Error(`Label “${label}” names no input`)
  return input as HTMLInputElement
}

export function buttonNamed(container: HTMLElement, name: string | RegExp): HTMLButtonElement {
  const buttons = [...container.querySelectorAll('button')]
  const found = buttons.find((b) => {
    const text = b.getAttribute('aria-label') ?? b.textContent ?? ''
    return typeof name === 'string' ? text.trim() === name : name.test(text)
  })
  if (!found) throw new Error(`No button “${String(name)}”`)
  return found
}
