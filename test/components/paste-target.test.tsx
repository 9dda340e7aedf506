// @vitest-environment happy-dom
// New run's step 1 says a pasted template is found only once the service gave it, so it never
// disagrees with step 2; a template opened by its id is listed, never "no template saved here".
import { act } from 'react'
import { expect, it } from 'vitest'
import { TargetPicker } from '../../src/renderer/prepare/TargetPicker'
import { bridgeError, buttonNamed, byLabel, click, pending, render, typeInto } from './harness'

const echo = {
  environment: 'Work',
  templateId: 'echo',
  name: 'Echo',
  description: 'Says each row back.',
  version: '1',
  instructions: [],
  columns: [],
  fields: [],
  fetchedAtMs: 0,
}

async function picker() {
  const h = await render(() => <TargetPicker />, {
    listCatalog: async () => ({ environment: 'Work', items: [], unitLabel: 'credits' }),
    listTemplates: async () => ({ environment: 'Work', items: [], offline: false }),
    getTemplate: (async (args: { templateId: string }) => {
      if (args.templateId === 'echo') return echo
      throw bridgeError('not-found', 'There is no template “nope” on this service.')
    }) as never,
    listPendingSubmissions: () => pending(),
    restoreDraft: () => pending(),
  })
  await act(async () => void h.stores.prepare.getState().open('Work'))
  await h.settle()
  return h
}

const said = (h: Awaited<ReturnType<typeof picker>>) =>
  h.container.querySelector('.paste-found')?.textContent ?? ''

it('a template id is "found" only once the service has it', async () => {
  const h = await picker()
  await typeInto(byLabel(h.container, 'Paste a link or id'), 'nope')
  expect(said(h)).not.toContain('Found')
  await click(buttonNamed(h.container, 'Use this template'))
  await h.settle()
  expect(said(h)).toContain('could not be opened')
  expect(said(h)).not.toContain('Found')
})

it('a template opened by its id is listed, and "no template saved" is not said', async () => {
  const h = await picker()
  expect(h.text()).toContain('No template is saved on this computer')
  await typeInto(byLabel(h.container, 'Paste a link or id'), 'echo')
  await click(buttonNamed(h.container, 'Use this template'))
  await h.settle()
  expect(said(h)).toContain('Found the template “echo”')
  expect(h.text()).not.toContain('No template is saved on this computer')
  expect(h.container.querySelector('.template-list')?.textContent).toContain('Echo')
})
