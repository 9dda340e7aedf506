// Rendering React components into happy-dom for component tests (no testing library needed):
// render inside act(), let pending promises settle, find things by their text or role.
import { act, type ReactNode } from 'react'
import { createRoot, type Root } from 'react-dom/client'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

export interface Rendered {
  container: HTMLElement
  unmount(): Promise<void>
}

const mounted: Root[] = []

export async function render(ui: ReactNode): Promise<Rendered> {
  const container = document.createElement('div')
  document.body.appendChild(container)
  const root = createRoot(container)
  mounted.push(root)
  await act(async () => {
    root.render(ui)
  })
  await settle()
  return {
    container,
    async unmount() {
      await act(async () => root.unmount())
      container.remove()
    },
  }
}

/** Lets pending promises and the renders they cause finish. */
export async function settle(times = 3): Promise<void> {
  for (let i = 0; i < times; i += 1) {
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0))
    })
  }
}

export async function click(element: Element | null | undefined): Promise<void> {
  if (!element) throw new Error('nothing to click')
  await act(async () => {
    ;(element as HTMLElement).click()
  })
  await settle()
}

/** The buttons whose text matches. */
export function button(container: HTMLElement, text: string | RegExp): HTMLButtonElement | null {
  return (
    [...container.querySelectorAll('button')].find((b) =>
      typeof text === 'string' ? b.textContent?.trim() === text : text.test(b.textContent ?? ''),
    ) ?? null
  )
}

export function text(container: HTMLElement): string {
  return (container.textContent ?? '').replace(/\s+/g, ' ')
}
