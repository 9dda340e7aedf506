// `runs show --json` of a big run writes its detail a page at a time: the same document that
// JSON.stringify(detail, null, 2) writes of the detail held whole.
import { expect, it } from 'vitest'
import { detailJson } from '../../src/cli/actions/runs'
import { runDetailSchema, type RunDetail } from '../../src/shared/contract'
import { artifact, market, run, task } from '../api/run-detail-fixtures'

const whole = (detail: RunDetail) => `${JSON.stringify(detail, null, 2)}\n`
const inPages = <T>(items: T[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) =>
    items.slice(i * size, i * size + size),
  )
const five = [0, 1, 2, 3, 4]

it('writes a detail page by page as it is written whole', () => {
  const detail = runDetailSchema.parse({
    run,
    market,
    tasks: five.map(task),
    artifacts: five.map(artifact),
  })
  const parts = detailJson(detail, {
    tasks: inPages(detail.tasks, 2),
    artifacts: inPages(detail.artifacts, 3),
  })
  expect([...parts].join('')).toBe(whole(detail))
})

it('writes empty lists and an absent market as a whole detail has them', () => {
  const detail = runDetailSchema.parse({ run, tasks: [], artifacts: [] })
  expect([...detailJson(detail, { tasks: [], artifacts: [[]] })].join('')).toBe(whole(detail))
})
