// `run --callback-url`: the address is checked by the same rule as the app's field, in the same
// words, before the workbook is read or anything is sent (exit 2: bad input); a good one is named
// in the consent, the sandbox calls it when the run ends, the history keeps it, and the rest of a
// pilot sent with one carries it.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { callbackAddressProblem } from '../../src/shared/callback-address'
import { paths } from '../../src/shared/contract'
import { useCallbackReceiver } from '../helpers/callback-receiver'
import { useCliOnSandbox } from '../helpers/cli'
import { call } from '../helpers/sandbox'

const { sandbox, home, cli } = useCliOnSandbox('sr-callback-url-', { taskMs: 10 })
const receiver = useCallbackReceiver()

const runCount = async () =>
  (await call<{ totalCount: number }>(sandbox, paths.runs())).body.totalCount

function workbook(name: string, rows: number): string {
  const path = join(home, name)
  writeFileSync(
    path,
    ['Message', ...Array.from({ length: rows }, (_, i) => `m${i + 1}`)].join('\n'),
  )
  return path
}

describe('run --callback-url', () => {
  it('refuses a bad address in the app’s words, exit 2, sending nothing', async () => {
    const book = workbook('three.csv', 3)
    const before = await runCount()
    for (const bad of [
      'ftp://files.example.com/in',
      'http://example.com/run-ended',
      'https://ada:s3cret@hooks.example.com/x',
      `https://example.com/${'a'.repeat(2100)}`,
    ]) {
      const result = await cli([
        'run',
        book,
        '--template',
        'row-echo',
        '--callback-url',
        bad,
        '--yes',
      ])
      expect(result.code, result.stderr).toBe(2)
      const problem = callbackAddressProblem(bad)!
      expect(result.stderr).toContain(`error: ${problem.message}`)
      expect(result.stderr).toContain(problem.nextStep)
      expect(result.stderr).not.toContain('s3cret')
    }
    expect(await runCount()).toBe(before)
  })

  it('names a good address before the consent, and the sandbox calls it when the run ends', async () => {
    const book = workbook('twelve.csv', 12)
    const address = receiver.url('/run-ended')
    const pilotArgs = ['run', book, '--template', 'row-echo', '--rows', '2-3']
    const pilot = await cli([...pilotArgs, '--callback-url', address])
    // Without --yes nothing is sent, and the address was named with the cost.
    expect(pilot.code).toBe(1)
    expect(pilot.stderr).toContain(`When it ends, the service will call ${address}.`)

    const sent = await cli([...pilotArgs, '--callback-url', address, '--yes', '--json'])
    expect(sent.code, sent.stderr).toBe(0)
    const pilotRunId = JSON.parse(sent.stdout).runId as string
    expect(await receiver.summaryOf(pilotRunId)).toMatchObject({
      runId: pilotRunId,
      status: 'succeeded',
    })

    // The rest of the pilot asks for the same call, said before the consent.
    const rest = await cli(['run', '--rest-of', pilotRunId, '--yes', '--json'])
    expect(rest.code, rest.stderr).toBe(0)
    expect(rest.stderr).toContain(`When it ends, the service will call ${address}.`)
    const restRunId = JSON.parse(rest.stdout).runId as string
    expect(await receiver.summaryOf(restRunId)).toMatchObject({ runId: restRunId, totalTasks: 10 })
    expect(receiver.received.map((r) => r.path)).toEqual(['/run-ended', '/run-ended'])

    const history = JSON.parse((await cli(['history', '--json'])).stdout) as {
      items: { runId: string; callbackUrl?: string }[]
    }
    for (const runId of [pilotRunId, restRunId])
      expect(history.items.find((i) => i.runId === runId)?.callbackUrl).toBe(address)
  })
})
