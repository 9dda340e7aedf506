// Modules import one way (DESIGN.md): no import circle anywhere in src, type imports included,
// the same check as `npx madge --circular --extensions ts src`.
// tier: integration (madge reads every source file: about half a minute)
import { fileURLToPath } from 'node:url'
import madge from 'madge'
import { expect, it } from 'vitest'

it('has no circular imports in src', async () => {
  const src = fileURLToPath(new URL('../../src', import.meta.url))
  const graph = await madge(src, { fileExtensions: ['ts', 'tsx'] })
  expect(graph.circular()).toEqual([])
}, 60_000)
