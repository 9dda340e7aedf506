import { describe, expect, it } from 'vitest'
import {
  checkFor,
  idleCheck,
  selectedEnvironment,
  sortedEnvironments,
  suggestedEnvironmentName,
} from '../../src/renderer/stores/environments-selectors'
import { environment } from '../helpers/run-fixtures'

const sandbox = environment({ name: 'Sandbox', builtIn: true, isDefault: true, hasToken: false })
const prod = environment({ name: 'Production' })
const acme = environment({ name: 'Acme' })

describe('environments selectors', () => {
  it('lists the built-in Sandbox first, then by name', () => {
    expect(sortedEnvironments({ items: [prod, sandbox, acme] }).map((e) => e.name)).toEqual([
      'Sandbox',
      'Acme',
      'Production',
    ])
  })

  it('shows the chosen environment, else the default', () => {
    expect(selectedEnvironment({ items: [prod, sandbox], selected: 'Production' })?.name).toBe(
      'Production',
    )
    expect(selectedEnvironment({ items: [prod, sandbox], selected: null })?.name).toBe('Sandbox')
    expect(selectedEnvironment({ items: [prod, sandbox], selected: 'Removed' })?.name).toBe(
      'Sandbox',
    )
    expect(selectedEnvironment({ items: [], selected: null })).toBeNull()
  })

  it('suggests a free name', () => {
    expect(suggestedEnvironmentName({ items: [sandbox] })).toBe('Production')
    expect(suggestedEnvironmentName({ items: [sandbox, prod] })).toBe('Service 2')
  })

  it('has an idle check for environments never checked', () => {
    expect(checkFor({ checks: {} }, 'Sandbox')).toBe(idleCheck)
  })
})
