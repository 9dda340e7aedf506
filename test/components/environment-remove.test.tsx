// @vitest-environment happy-dom
// Removing an environment asks first, inline; Keep or Escape closes the question and gives focus
// back to "Remove…".
import { act } from 'react'
import { describe, expect, it } from 'vitest'
import { EnvironmentHeader } from '../../src/renderer/components/EnvironmentHeader'
import { environment } from '../helpers/run-fixtures'
import { buttonNamed, click, render } from './harness'

describe('the inline “Remove … and its token?”', () => {
  it('closes on Escape and gives focus back to Remove…', async () => {
    const env = environment({ name: 'Acme staging', builtIn: false })
    const h = await render(() => <EnvironmentHeader env={env} />, {})
    await click(buttonNamed(h.container, 'Remove…'))
    expect(h.text()).toContain('Remove Acme staging and its token?')
    const keep = buttonNamed(h.container, 'Keep')
    await act(async () => {
      keep.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    })
    await h.settleUntil(() => !h.text().includes('and its token?'))
    expect(document.activeElement).toBe(buttonNamed(h.container, 'Remove…'))
  })
})
