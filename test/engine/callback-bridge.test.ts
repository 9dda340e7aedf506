// The address a template run asks the service to call when it ends, through the Bridge verbs the
// New run screen and a run's page use, on a real sandbox: refused before any cost is worked out
// when it breaks the shared rule, remembered per environment and template, named in the plan,
// kept by the journal (run page, History, a resend after a lost answer), carried by a redo, and
// cleared in the confirm.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { callbackAddressProblem } from '../../src/shared/callback-address'
import { paths } from '../../src/shared/contract'
import { useCallbackReceiver } from '../helpers/callback-receiver'
import { ipc, runEnded } from '../helpers/engine'
import { useLocalBridge } from '../helpers/local-bridge'

const { engine, connection, bridge, home, sandbox } = useLocalBridge('sr-callback-bridge-')
const receiver = useCallbackReceiver()
const environment = 'Local'

function rowsFile(): { kind: 'path'; path: string; name: string } {
  const path = join(home(), 'three.csv')
  writeFileSync(path, 'Message\none\ntwo\nthree\n')
  return { kind: 'path', path, name: 'three.csv' }
}

const rowEcho = { kind: 'template', templateId: 'row-echo' } as const
const remembered = async () =>
  (await bridge.handlers.getTemplate({ environment, templateId: 'row-echo' }, ipc)).callbackUrl

describe('the address to call when a run ends, in the app', () => {
  it('refuses a bad address before any cost is worked out, and keeps none', async () => {
    for (const bad of [
      'ftp://x.example.com/in',
      'http://example.com/x',
      'https://a:b@x.example.com/',
    ]) {
      const refused = bridge.handlers.planSubmission(
        { environment, file: rowsFile(), target: rowEcho, callbackUrl: bad },
        ipc,
      )
      await expect(refused).rejects.toMatchObject({
        category: 'bad-input',
        message: callbackAddressProblem(bad)!.message,
      })
    }
    expect(await remembered()).toBe('')
    const listing = bridge.handlers.planSubmission(
      {
        environment,
        file: rowsFile(),
        target: { kind: 'listing', listingId: 'lst_x', listingVersionId: 'v1' },
        callbackUrl: receiver.url('/x'),
      },
      ipc,
    )
    await expect(listing).rejects.toMatchObject({ category: 'bad-input' })
  })

  it('names it in the plan, remembers it here, and the run’s page and History show it', async () => {
    const address = receiver.url('/run-ended')
    const plan = await bridge.handlers.planSubmission(
      { environment, file: rowsFile(), target: rowEcho, callbackUrl: ` ${address} ` },
      ipc,
    )
    expect(plan.callbackUrl).toBe(address)
    expect(plan.summary).toContain(`When it ends, the service will call ${address}.`)
    expect(await remembered()).toBe(address)
    // Per environment: another one does not offer it.
    expect(engine.callbackAddresses.forTemplate('https://other.example.com', 'row-echo')).toBe('')

    const sent = await bridge.handlers.confirmSubmission(
      { environment, planId: plan.planId, confirmed: true },
      ipc,
    )
    expect(await receiver.summaryOf(sent.runId)).toMatchObject({ runId: sent.runId })
    const overview = await bridge.handlers.getRunOverview({ environment, runId: sent.runId }, ipc)
    expect(overview.callbackUrl).toBe(address)
    const history = await bridge.handlers.listHistory({}, ipc)
    expect(history.items.find((e) => e.runId === sent.runId)?.callbackUrl).toBe(address)

    // A redo of its rows carries it, unless the buyer clears it in the confirm.
    await runEnded(connection, sent.runId)
    const redo = await bridge.handlers.planRedo({ environment, runId: sent.runId, rows: [3] }, ipc)
    expect(redo.callbackUrl).toBe(address)
    const again = await bridge.handlers.confirmSubmission(
      { environment, planId: redo.planId, confirmed: true, withoutCallback: true },
      ipc,
    )
    expect(engine.submissions.byRun(connection.historyKey, again.runId)?.callbackUrl).toBe('')
    const redone = await bridge.handlers.getRunOverview({ environment, runId: again.runId }, ipc)
    expect(redone.callbackUrl).toBeUndefined()

    // Asking for the cost without one forgets it for the next time.
    await bridge.handlers.planSubmission({ environment, file: rowsFile(), target: rowEcho }, ipc)
    expect(await remembered()).toBe('')
  })

  it('resends a lost answer with the same address, so the service takes it as the same run', async () => {
    const address = receiver.url('/after-a-crash')
    const plan = await bridge.handlers.planSubmission(
      { environment, file: rowsFile(), target: rowEcho, callbackUrl: address, pilotRows: 2 },
      ipc,
    )
    // The run is made, then every answer to it is lost: the journal keeps it unanswered.
    sandbox.injectFault({
      method: 'POST',
      path: paths.runRows('row-echo'),
      drop: 'after',
      times: 4,
    })
    await expect(
      bridge.handlers.confirmSubmission({ environment, planId: plan.planId, confirmed: true }, ipc),
    ).rejects.toBeDefined()
    const [waiting] = engine.submissions.unanswered(connection.historyKey)
    expect(waiting?.callbackUrl).toBe(address)

    // Sent again with the same request: another address would be another body, refused (409).
    const [resent] = await engine.submissions.resendUnanswered(connection)
    expect(resent).toMatchObject({ state: 'accepted', callbackUrl: address })
    expect(await receiver.summaryOf(resent!.runId)).toMatchObject({ totalTasks: 2 })

    // It was a pilot: the rest of its workbook asks for the same call.
    const rest = await bridge.handlers.planRestOfPilot({ environment, runId: resent!.runId }, ipc)
    expect(rest).toMatchObject({ rowCount: 1, callbackUrl: address })
  })
})
